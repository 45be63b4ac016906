import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

// Raw HTML off and markdown-it's own link validation kept (javascript:, vbscript:, data: refused).
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
// An agent's markdown must not make the browser fetch anything: images show as their text.
markdown.disable('image');
// Table alignment arrives as style attributes, which the app's content security policy refuses.
markdown.core.ruler.push('review_no_inline_style', (state) => {
  for (const token of state.tokens) {
    for (const child of [token, ...(token.children ?? [])]) {
      if (child.attrs) child.attrs = child.attrs.filter(([name]) => name !== 'style');
    }
  }
});
const renderLink = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('rel', 'noopener noreferrer nofollow');
  return renderLink
    ? renderLink(tokens, index, options, env, self)
    : self.renderToken(tokens, index, options);
};

/** A markdown file as it reads rendered: CommonMark, no raw HTML, no images, safe links only. */
export function ReviewMarkdown({ text, label }: { text: string; label: string }) {
  const html = useMemo(() => markdown.render(text), [text]);
  return (
    <section className="review-markdown" aria-label={label}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it escapes everything with html off */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}
