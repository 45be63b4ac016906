export type { SignedDecisionFields } from 'gatehouse-hitl-protocol';
export {
  KEY_PROOF_PREFIX,
  keyProofText,
  SIGNED_DECISION_PREFIX,
  signedDecisionText,
} from 'gatehouse-hitl-protocol';
