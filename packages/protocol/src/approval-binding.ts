import { canonicalJson } from './canonical-json.js';

/** The first line of the text an approval's binding value hashes; a new layout gets a new version. */
export const APPROVAL_BINDING_PREFIX = 'gatehouse-approval-binding-v1\n';

/** What an approval binds to: this gate and the SHA-256 of this exact action. */
export interface ApprovalBindingFields {
  gateId: string;
  payloadHash: string;
}

/** The text whose SHA-256 is an approval's binding value: a version line, then canonical JSON of the gate id and payload hash. */
export function approvalBindingText(fields: ApprovalBindingFields): string {
  return `${APPROVAL_BINDING_PREFIX}${canonicalJson({ gateId: fields.gateId, payloadHash: fields.payloadHash })}`;
}
