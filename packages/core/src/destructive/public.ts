// Reading commands and calls for what they destroy, and the always-gated categories. Re-exported whole by the package's index.
export type { ActionReading, FileEffect } from './command-reader.js';
export { readAction } from './command-reader.js';
export type { ScopeSuggestion, StandingScope } from './command-scope.js';
export {
  describeStandingScope,
  globMatches,
  standingScopeCovers,
  standingScopeRefusal,
  standingScopeSchema,
  suggestStandingScopes,
} from './command-scope.js';
export type { AlwaysGatedCategory } from './destructive.js';
export {
  ALWAYS_GATED_CATEGORIES,
  ALWAYS_GATED_LABELS,
  actionPaths,
  classifyAlwaysGated,
  DESTRUCTIVE_PATTERNS,
  detectDestructiveAction,
  detectDestructiveCommand,
  detectDestructiveSql,
  isAlwaysGated,
  isDestructiveCommand,
  SHELL_TOOLS,
} from './destructive.js';
export type { DestructiveActionKind } from './destructive-alternatives.js';
export { DESTRUCTIVE_ALTERNATIVES } from './destructive-alternatives.js';
export type { DestructiveCategory, DestructiveFinding } from './destructive-types.js';
export { DESTRUCTIVE_CATEGORIES } from './destructive-types.js';
export type { PushContext, RefUpdate } from './push-rules.js';
export {
  isPhaseBranch,
  judgePush,
  pushRefusalOf,
  pushRunRefusal,
  ZERO_OBJECT_ID,
} from './push-rules.js';
