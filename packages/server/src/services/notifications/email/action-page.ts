import type { Briefing } from 'gatehouse-hitl-core';
import { DECISION_TEXT_MAX } from 'gatehouse-hitl-protocol/rules';
import { escapeHtml } from './email-render.js';

/** Nothing runs on the page: no script, no outside resource; the form posts back here only. */
export const ACTION_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A text field the option needs. */
export interface ActionField {
  name: 'reason' | 'instructions' | 'feedback' | 'answer' | 'delegateTo' | 'newLimit';
  label: string;
  required: boolean;
  /** A list to pick from (an agent to delegate to), a number (a new limit), or free text. */
  input?: { kind: 'choice'; choices: { value: string; label: string }[] } | { kind: 'number' };
}

function fieldHtml(field: ActionField): string {
  const label = `<label for="${field.name}">${escapeHtml(field.label)}${field.required ? ' (required)' : ''}</label>`;
  const required = field.required ? ' required' : '';
  if (field.input?.kind === 'choice') {
    const options = field.input.choices
      .map((choice) => `<option value="${escapeHtml(choice.value)}">${escapeHtml(choice.label)}</option>`)
      .join('');
    return `<p>${label}<br><select id="${field.name}" name="${field.name}"${required}><option value="">Choose…</option>${options}</select></p>`;
  }
  if (field.input?.kind === 'number') {
    return `<p>${label}<br><input id="${field.name}" name="${field.name}" type="number" step="any"${required}></p>`;
  }
  const max = DECISION_TEXT_MAX[field.name as keyof typeof DECISION_TEXT_MAX] ?? 10_000;
  return `<p>${label}<br><textarea id="${field.name}" name="${field.name}" maxlength="${max}"${required}></textarea></p>`;
}

const STYLE =
  'body{font-family:sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;line-height:1.5}' +
  'textarea{width:100%;min-height:6rem}button{padding:.6rem 1.2rem;font-size:1rem;min-height:44px}' +
  'pre{white-space:pre-wrap;background:#f4f4f4;padding:.75rem}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Gatehouse</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** A plain message: a used, expired or altered link, a gate already decided, a decision recorded. */
export function messagePage(title: string, message: string, gateUrl: string | null): string {
  const link = gateUrl === null ? '' : `<p><a href="${escapeHtml(gateUrl)}">Open Gatehouse</a></p>`;
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${link}`);
}

/** The decision needs the person's session: a link to sign in, which comes back to the email link. */
export function signInPage(message: string, signInUrl: string): string {
  const link = `<p><a href="${escapeHtml(signInUrl)}">Sign in to Gatehouse</a></p>`;
  return page('Sign in first', `<h1>Sign in first</h1><p>${escapeHtml(message)}</p>${link}`);
}

/** The confirmation page: the action, the option, the fields it needs and one button that decides. */
export function confirmPage(input: {
  briefing: Briefing | null;
  title: string;
  option: { label: string; description: string };
  fields: ActionField[];
  formAction: string;
  gateUrl: string;
  person: string;
  /** Set when the gate needs the person's session and this request carried none. */
  signIn: { url: string; role: string } | null;
}): string {
  const { briefing, option } = input;
  const warning = briefing?.hiddenCharacters
    ? '<p role="alert"><strong>This request holds hidden characters, shown as ⟨U+…⟩ markers. Read it carefully.</strong></p>'
    : '';
  const fields = input.fields.map(fieldHtml).join('');
  const body = [
    `<h1>Confirm: ${escapeHtml(option.label)}</h1>`,
    `<p>You are deciding as <strong>${escapeHtml(input.person)}</strong>. Nothing is decided until you press the button.</p>`,
    input.signIn === null
      ? ''
      : `<p>Gates that need the ${escapeHtml(input.signIn.role)} role are decided only while you are signed in to Gatehouse in this browser. If you are not, <a href="${escapeHtml(input.signIn.url)}">sign in first</a>; you come back to this page.</p>`,
    warning,
    `<h2>${escapeHtml(briefing?.summary ?? input.title)}</h2>`,
    briefing === null || briefing.details === '' ? '' : `<pre>${escapeHtml(briefing.details)}</pre>`,
    `<p>${escapeHtml(option.description)}</p>`,
    `<form method="post" action="${escapeHtml(input.formAction)}">${fields}<button type="submit">${escapeHtml(option.label)}</button></form>`,
    `<p><a href="${escapeHtml(input.gateUrl)}">Open the gate in Gatehouse instead</a></p>`,
  ].join('');
  return page(`Confirm ${option.label}`, body);
}
