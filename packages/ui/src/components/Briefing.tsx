import type { BriefingSection, Briefing as GateBriefing } from 'gatehouse-hitl-core';
import { Revealed } from './Revealed.js';

function SectionBody({ section }: { section: BriefingSection }) {
  const labelled = section.fields.filter((field) => field.label !== '');
  const bare = section.fields.filter((field) => field.label === '');
  return (
    <>
      {labelled.length > 0 && (
        <dl className="gate-facts">
          {labelled.map((field) => (
            <div key={field.label} className="gate-fact">
              <dt>{field.label}</dt>
              <dd>
                <Revealed text={field.value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {bare.length > 0 && (
        <ul>
          {bare.map((field, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: list items may repeat and never reorder
            <li key={index}>
              <Revealed text={field.value} />
            </li>
          ))}
        </ul>
      )}
      {section.lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines may repeat and never reorder
        <p key={index} className="briefing-line">
          <Revealed text={line} />
        </p>
      ))}
    </>
  );
}

/**
 * The server's Summary of Action, section by section (its one-line summary is the page's heading); sections another part of the screen shows
 * in full (the proposed action, recovery history, confidence reasons) are left out by title.
 */
export function Briefing({ briefing, omit = [] }: { briefing: GateBriefing; omit?: readonly string[] }) {
  const sections = briefing.sections.filter((section) => !omit.includes(section.title));
  return (
    <section className="card briefing" aria-labelledby="briefing-heading">
      <h2 id="briefing-heading">Summary of Action</h2>
      {briefing.constraintInfo && <p className="notice info">{briefing.constraintInfo}</p>}
      {sections.map((section) => (
        <div key={section.title} className="briefing-section">
          <h3>{section.title}</h3>
          <SectionBody section={section} />
        </div>
      ))}
    </section>
  );
}
