/**
 * What a free-text operation ("call the weather API", "spawn a research agent") is, for the
 * seed's list of operations that need no approval. Text that also names something destructive
 * or costly is never classified, so it keeps waiting for a person.
 */
export type OperationKind = 'external_api_call' | 'agent_spawn' | 'file_read';

const DESTRUCTIVE_WORDS =
  /\b(delet\w*|drop\w*|remov\w*|destroy\w*|wip\w*|purg\w*|truncat\w*|terminat\w*|kill\w*|shut\w*|reset\w*|overwrit\w*|revok\w*|transfer\w*|pay\w*|refund\w*|charg\w*|deploy\w*|publish\w*|send\w*|email\w*|post\w*|put|patch|write\w*|edit\w*|modif\w*|updat\w*|chang\w*|creat\w* (a )?(user|account|key|token)|execut\w*|run\w*|shell|sudo|rm)\b/i;
const AGENT_SPAWN =
  /^\s*(spawn|start|launch|create|fork|delegate to|hand off to|invoke)\s+(an?\s+|the\s+|new\s+|another\s+)*(sub-?agents?|agents?|helper agents?|worker agents?|research agents?|[\w-]+ (sub-?)?agents?)\b/i;
const API_CALL =
  /^\s*(call|invoke|query|fetch( data)? from|request|get( data)? from|look up( .+)? (in|with|via)|use)\s+(an?\s+|the\s+)?(external\s+|third-party\s+|public\s+|remote\s+)?[\w .-]{0,40}?\b(api|endpoint|service|web service)\b/i;
const FILE_READ =
  /^\s*(read|open|view|list|search|grep|inspect|look at)\s+(an?\s+|the\s+)?[\w ./-]{0,60}?\b(files?|directory|directories|folders?|logs?)\b/i;

const SECRET_WORDS =
  /\.env|secret|credential|password|passwd|shadow|token|private key|id_rsa|\.ssh|\.aws|\/etc\//i;

/** The kind of a free-text operation, or null when it is not one the seed lets through. */
export function operationKindOf(operation: string | undefined): OperationKind | null {
  if (operation === undefined || operation.length > 300 || DESTRUCTIVE_WORDS.test(operation)) return null;
  if (AGENT_SPAWN.test(operation)) return 'agent_spawn';
  if (API_CALL.test(operation)) return 'external_api_call';
  if (FILE_READ.test(operation) && !SECRET_WORDS.test(operation)) return 'file_read';
  return null;
}
