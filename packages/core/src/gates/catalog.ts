import { GatehouseError } from '../errors.js';
import {
  BUILTIN_GATE_SPECS,
  builtinTypesWhere,
  DEFAULT_GATE_BEHAVIOUR,
  defineGateType,
  type GateTypeBehaviour,
  type GateTypeSpec,
} from '../gate-types/index.js';
import { invalidField as invalid } from '../invalid-field.js';
import {
  type GateOption,
  type GateThreshold,
  type GateTypeDefinition,
  gateTypeDefinitionSchema,
  type RiskLevel,
  type Role,
  roleRank,
} from '../schemas.js';
import { assignDecisionKeys } from './decision-keys.js';

/** The gate types one Gatehouse knows: the built-in ones plus any registered custom types. */
export interface GateCatalog {
  /** The definition of `type`; throws UNKNOWN_GATE_TYPE when there is none. */
  get(type: string): GateTypeDefinition;
  has(type: string): boolean;
  /** Built-in types first, then custom types in the order they were registered. */
  list(): GateTypeDefinition[];
  /** Everything `type` is: its definition and behaviour; custom types behave as `DEFAULT_GATE_BEHAVIOUR` unless registered otherwise. */
  spec(type: string): GateTypeSpec;
  /** Adds a custom type after validating it, with any behaviour of its own; returns the stored definition. */
  register(definition: unknown, behaviour?: CustomGateBehaviour): GateTypeDefinition;
}

/** What a custom type may bring of its own; plain reject, steer and approve keep their names on it, and no request event opens it by default. */
export type CustomGateBehaviour = Partial<Omit<GateTypeBehaviour, 'equivalents' | 'policyEvent'>>;

// Seed 001: these gates block or escalate on timeout, never proceed.
export const NEVER_PROCEED_TYPES: ReadonlySet<string> = builtinTypesWhere((spec) => spec.neverProceeds);

/** The option of `definition` called `id`, if it has one. */
export function findOption(
  definition: Pick<GateTypeDefinition, 'options'>,
  id: string,
): GateOption | undefined {
  return definition.options.find((option) => option.id === id);
}

/** The options that answer a gate (as opposed to view, diff or history, which only show more). */
export function endingOptions(definition: Pick<GateTypeDefinition, 'options'>): GateOption[] {
  return definition.options.filter((option) => option.ends);
}

/** What decides whether a gate may go ahead by itself when nobody answers in time. */
export interface ProceedOnTimeoutInput {
  definition: GateTypeDefinition;
  risk: RiskLevel;
  alwaysGated: boolean;
  destructive: boolean;
  /** The gate's own threshold when it differs from the type's default. */
  threshold?: GateThreshold | undefined;
  /** Distinct approvals the gate needs. @default 1 */
  requiredApprovals?: number | undefined;
  /** The least role that may decide the gate. @default the type's */
  minRole?: Role | undefined;
  /** Decisions must be signed. @default false */
  signatureRequired?: boolean | undefined;
  /** The type blocks or escalates on timeout. @default true for the built-in types that never proceed */
  neverProceeds?: boolean | undefined;
}

/** Why "proceed" on timeout is refused for this gate, or null when it is allowed. */
export function proceedOnTimeoutRefusal(input: ProceedOnTimeoutInput): string | null {
  const { definition } = input;
  if (definition.threshold === 'mandatory' || input.threshold === 'mandatory') return 'the gate is mandatory';
  if (input.neverProceeds ?? NEVER_PROCEED_TYPES.has(definition.type))
    return `${definition.type} gates never proceed on timeout`;
  if (input.destructive) return 'the action is destructive';
  if (input.alwaysGated) return 'the action is always gated';
  if (input.risk === 'high' || input.risk === 'critical') return `the risk is ${input.risk}`;
  if ((input.requiredApprovals ?? 1) > 1) return `the gate needs ${input.requiredApprovals} approvals`;
  if (input.signatureRequired === true) return 'the gate needs a signed decision';
  const minRole = input.minRole ?? definition.minRole;
  if (roleRank(minRole) > roleRank('developer')) return `the gate needs the role ${minRole}`;
  if (!definition.options.some((option) => option.outcome === 'approved')) {
    return `${definition.type} gates have no approving option to proceed with`;
  }
  return null;
}

/** True when a gate may be approved by its timeout ("proceed"): never for mandatory, destructive, always-gated, high-risk, multi-approval, signed or above-developer gates. */
export function canProceedOnTimeout(input: ProceedOnTimeoutInput): boolean {
  return proceedOnTimeoutRefusal(input) === null;
}

function checkOptions(options: readonly GateOption[]): void {
  const ids = new Set<string>();
  const keys = new Set<string>();
  options.forEach((option, index) => {
    if (ids.has(option.id))
      throw invalid(`options[${index}].id`, `"${option.id}" is used twice; option ids must be unique`);
    const key = option.key.toLowerCase();
    if (keys.has(key))
      throw invalid(`options[${index}].key`, `"${option.key}" is used twice; keys must be unique`);
    if (option.ends && option.outcome === undefined) {
      throw invalid(`options[${index}].outcome`, `required because option "${option.id}" ends the gate`);
    }
    if (!option.ends && option.outcome !== undefined) {
      throw invalid(`options[${index}].outcome`, `leave it out: option "${option.id}" does not end the gate`);
    }
    ids.add(option.id);
    keys.add(key);
  });
  if (!options.some((option) => option.ends)) {
    throw invalid('options', 'at least one option must end the gate (ends: true)');
  }
  if (assignDecisionKeys(options).some((binding) => binding.key === '')) {
    throw invalid(
      'options',
      'at most 9 options besides approve, reject, steer and approve_always; the others are keyed 1-9',
    );
  }
}

function parseDefinition(input: unknown, neverProceeds: boolean): GateTypeDefinition {
  const parsed = gateTypeDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({
      field: issue.path.length > 0 ? issue.path.map(String).join('.') : 'definition',
      message: issue.message,
    }));
    const first = fields[0]!;
    throw new GatehouseError('VALIDATION_FAILED', `${first.field}: ${first.message}`, {
      field: first.field,
      fields,
    });
  }
  const definition = parsed.data;
  checkOptions(definition.options);
  if (definition.defaultTimeoutAction === 'proceed') {
    const refusal = proceedOnTimeoutRefusal({
      definition,
      risk: definition.defaultRisk,
      alwaysGated: false,
      destructive: false,
      neverProceeds,
    });
    if (refusal !== null) {
      throw invalid(
        'defaultTimeoutAction',
        `"proceed" is not allowed because ${refusal}; use "deny" or "escalate"`,
      );
    }
  }
  return definition;
}

// Every gate type answers to the one key map, so a custom type's own keys are replaced by it.
function freeze(definition: GateTypeDefinition): GateTypeDefinition {
  const options = assignDecisionKeys(definition.options).map(({ key, option }) =>
    Object.freeze({ ...option, key, requires: [...option.requires] }),
  );
  return Object.freeze({ ...definition, options: Object.freeze(options) as GateOption[] });
}

// Only what a custom type may bring, even when handed a whole spec.
function behaviourOf(behaviour: CustomGateBehaviour): CustomGateBehaviour {
  const { briefing, batchable, neverProceeds, withdrawable, openedBy } = behaviour;
  const picked = { briefing, batchable, neverProceeds, withdrawable, openedBy };
  return Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined));
}

/**
 * A catalog holding the built-in gate types; custom types registered on it stay local to it.
 * @example
 * const catalog = createGateCatalog();
 * catalog.get('tool_call').options.map((option) => option.id); // ['approve', 'approve_always', 'reject', 'steer']
 */
export function createGateCatalog(): GateCatalog {
  const builtins = new Map(BUILTIN_GATE_SPECS.map((spec) => [spec.definition.type, spec]));
  const custom = new Map<string, GateTypeSpec>();
  const lookup = (type: string) => builtins.get(type) ?? custom.get(type);
  const spec = (type: string): GateTypeSpec => {
    const found = lookup(type);
    if (found !== undefined) return found;
    const known = [...builtins.keys(), ...custom.keys()];
    throw new GatehouseError(
      'UNKNOWN_GATE_TYPE',
      `unknown gate type "${type}"; known types: ${known.join(', ')}`,
      {
        type,
        known,
      },
    );
  };
  return {
    get: (type) => spec(type).definition,
    spec,
    has: (type) => lookup(type) !== undefined,
    list: () => [...builtins.values(), ...custom.values()].map((each) => each.definition),
    register(input, behaviour = {}) {
      const definition = parseDefinition(input, behaviour.neverProceeds ?? false);
      if (builtins.has(definition.type)) {
        throw invalid(
          'type',
          `"${definition.type}" is a built-in gate type and cannot be replaced; pick another name`,
        );
      }
      if (custom.has(definition.type)) {
        throw invalid('type', `"${definition.type}" is already registered; pick another name`);
      }
      const stored = defineGateType({
        ...DEFAULT_GATE_BEHAVIOUR,
        ...behaviourOf(behaviour),
        definition: freeze(definition),
      });
      custom.set(definition.type, stored);
      return stored.definition;
    },
  };
}
