import type { Briefing } from 'gatehouse-hitl-core';
import { headlineOf } from '../../gates/gate-headline.js';
import type { GateNotice } from '../channel.js';

/** One option as an emailed link. */
export interface OptionLink {
  label: string;
  description: string;
  url: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A subject line holds no line breaks (header injection) and stays short. */
function oneLine(text: string, max = 160): string {
  const flat = text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const HEADLINES: Readonly<Record<GateNotice['trigger'], string>> = {
  'gate.opened': 'A gate is waiting for you',
  'gate.timeout_warning': 'A gate is about to time out',
  'gate.escalated': 'A gate escalated to you',
  'gate.assigned': 'A gate was assigned to you',
  'gate.decided': 'A gate was decided',
  'gate.expired': 'A gate expired',
  'gate.cancelled': 'A gate was cancelled',
};

function outcomeLine(notice: GateNotice): string | null {
  if (notice.outcome === undefined) return null;
  const { option, decidedBy, reason } = notice.outcome;
  return `Decided: ${option} by ${decidedBy}${reason ? ` — ${reason}` : ''}`;
}

function textBody(notice: GateNotice, briefing: Briefing | null, links: OptionLink[]): string {
  const lines = [HEADLINES[notice.trigger], '', headlineOf(notice.gate, briefing), ''];
  const outcome = outcomeLine(notice);
  if (outcome !== null) lines.push(outcome, '');
  if (briefing !== null && briefing.details !== '') lines.push(briefing.details, '');
  // The briefing's Findings section: each finding's file:line, bounded, hidden characters marked.
  const findings = briefing?.sections.find((section) => section.title === 'Findings')?.fields ?? [];
  if (findings.length > 0) lines.push('Findings:', ...findings.map((field) => `- ${field.value}`), '');
  for (const link of links) lines.push(`${link.label}: ${link.url}`);
  if (links.length > 0)
    lines.push('', 'Each link opens a confirmation page; nothing is decided until you confirm there.');
  lines.push(`Gate: ${notice.gateUrl}`);
  return `${lines.join('\n')}\n`;
}

function htmlSections(briefing: Briefing | null): string {
  if (briefing === null) return '';
  return briefing.sections
    .map((section) => {
      const fields = section.fields
        .map(
          (f) =>
            `<li>${f.label ? `<strong>${escapeHtml(f.label)}:</strong> ` : ''}${escapeHtml(f.value)}</li>`,
        )
        .join('');
      const lines = section.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('');
      return `<h3>${escapeHtml(section.title)}</h3><ul>${fields}${lines}</ul>`;
    })
    .join('');
}

function htmlBody(notice: GateNotice, briefing: Briefing | null, links: OptionLink[]): string {
  const outcome = outcomeLine(notice);
  const buttons = links
    .map(
      (link) =>
        `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 16px;border:1px solid #333;border-radius:4px;text-decoration:none">${escapeHtml(link.label)}</a> ${escapeHtml(link.description)}</p>`,
    )
    .join('');
  return [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2>${escapeHtml(HEADLINES[notice.trigger])}</h2>`,
    `<p><strong>${escapeHtml(headlineOf(notice.gate, briefing))}</strong></p>`,
    outcome === null ? '' : `<p>${escapeHtml(outcome)}</p>`,
    htmlSections(briefing),
    buttons,
    links.length > 0
      ? '<p>Each link opens a confirmation page; nothing is decided until you confirm there.</p>'
      : '',
    `<p><a href="${escapeHtml(notice.gateUrl)}">Open the gate in Gatehouse</a></p>`,
    '</body></html>',
  ].join('');
}

/**
 * The email for one notice: text and HTML parts with the Summary of Action the gate's page shows
 * (`briefing`, null when none could be built) and one link per option.
 */
export function renderEmail(
  notice: GateNotice,
  briefing: Briefing | null,
  links: OptionLink[],
): RenderedEmail {
  const summary = headlineOf(notice.gate, briefing);
  return {
    subject: oneLine(`[Gatehouse] ${HEADLINES[notice.trigger]}: ${summary}`),
    text: textBody(notice, briefing, links),
    html: htmlBody(notice, briefing, links),
  };
}
