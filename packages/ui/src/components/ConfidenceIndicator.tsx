import type { BriefingConfidence } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { bandMeaning } from './confidence-text.js';
import { Revealed } from './Revealed.js';

const BAND_TEXT: Record<BriefingConfidence['band'], string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  zero: 'Zero',
};

/** The agent's confidence: score out of 100, its band written out (colour only repeats it) and the reasons. */
export function ConfidenceIndicator({
  confidence,
  reasons,
  gate,
}: {
  confidence: BriefingConfidence | null;
  reasons: readonly string[];
  /** The band's text says what this gate's deadline really does. */
  gate: Gate;
}) {
  return (
    <section className="card" aria-labelledby="confidence-heading">
      <h2 id="confidence-heading">Confidence</h2>
      {confidence === null ? (
        <p className="muted">The agent reported no confidence for this step.</p>
      ) : (
        <div className={`confidence confidence-${confidence.band}`}>
          <p className="confidence-score">
            <span className="confidence-number">{confidence.score}</span>
            <span className="muted"> / 100</span>{' '}
            <span className={`badge band-${confidence.band}`}>{BAND_TEXT[confidence.band]} confidence</span>
          </p>
          <meter
            className="confidence-meter"
            min={0}
            max={100}
            low={50}
            high={80}
            optimum={100}
            value={confidence.score}
            aria-label={`Confidence ${confidence.score} of 100, ${BAND_TEXT[confidence.band].toLowerCase()} band`}
          />
          <p className="muted">
            {BAND_TEXT[confidence.band]} band: {bandMeaning(confidence.band, gate)}
          </p>
        </div>
      )}
      {reasons.length > 0 && (
        <>
          <h3>Reasons</h3>
          <ul>
            {reasons.map((reason, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: reasons may repeat and never reorder
              <li key={index}>
                <Revealed text={reason} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
