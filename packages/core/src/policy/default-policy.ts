import { parse as parseYaml } from 'yaml';
import { type Policy, policySchema } from './policy-schema.js';

/** The built-in policy as YAML: the place to start a policy of your own. */
export const DEFAULT_POLICY_YAML = `# Gatehouse default policy.
# Higher priority wins; at equal priority deny > gate > allow. Nothing matched: gate.
name: default
version: 1
defaultAction: gate
rules:
  # Guardrails guidelines, with their ids and priorities.
  - id: hitl-gate-intent-approval
    description: Gate 0. Planning artifacts are done; a person approves the intent before any implementation.
    priority: 960
    match: { events: [planning_complete] }
    action: { gate: { type: intent_approval, threshold: mandatory } }
    reason: Before implementation a person approves the design, user stories and tasks.
  - id: confidence-threshold
    description: Auto-escalation when the agent reports confidence below the threshold (90 of 100), or none.
    priority: 850
    match: { events: [task_completion] }
    condition: confidence == null || confidence < 0.9
    action: { gate: { type: confidence_threshold, threshold: conditional } }
    reason: Agent confidence below the threshold; review the output and continue, roll back or steer.
  - id: confidence-meets-threshold
    description: A task completion at or above the confidence threshold goes ahead (conditional guideline).
    priority: 850
    match: { events: [task_completion] }
    condition: confidence != null && confidence >= 0.9
    action: allow
    reason: Agent confidence meets the threshold.
  - id: hitl-gate-constraint-exception
    description: Advisory gate when a task cannot be done within its spec or budget.
    priority: 800
    match: { events: [constraint_violation] }
    action: { gate: { type: constraint_exception, threshold: advisory } }
    reason: The agent cannot finish within its constraints; expand the constraint, reduce scope or abort.

  # Text a reviewer cannot see as sent: shown with markers, and always at high risk.
  - id: hidden-characters
    description: Bidirectional, zero-width, tag or control characters in the tool name, operation or arguments.
    priority: 990
    condition: hasHiddenCharacters()
    action: { gate: { risk: high } }
    reason: The request contains hidden characters that can make it read differently from what runs; the gate shows each as ⟨U+…⟩.

  # Always gated, whatever the confidence (confidence seed).
  - id: always-gate-delete-files
    priority: 900
    condition: '"delete_files" in alwaysGatedCategories()'
    action: { gate: { risk: high } }
    reason: Deleting files always needs a person.
  - id: always-gate-drop-tables
    priority: 900
    condition: '"drop_tables" in alwaysGatedCategories()'
    action: { gate: { risk: high } }
    reason: Dropping database tables always needs a person.
  - id: always-gate-production-config
    priority: 900
    condition: '"production_config" in alwaysGatedCategories()'
    action: { gate: { risk: high } }
    reason: Modifying production configuration always needs a person.
  - id: always-gate-system-packages
    priority: 900
    condition: '"system_packages" in alwaysGatedCategories()'
    action: { gate: { risk: high } }
    reason: Installing system packages always needs a person.
  - id: always-gate-destructive-shell
    priority: 900
    condition: '"destructive_shell" in alwaysGatedCategories()'
    action: { gate: { risk: high } }
    reason: Running destructive shell commands always needs a person.
  - id: always-gate-secret-files
    priority: 900
    condition: '"secret_files" in alwaysGatedCategories()'
    action: { gate: { risk: high } }
    reason: Modifying .env or secret files always needs a person.

  # Escalations raised by the recovery, detection and autonomy rules.
  - id: recovery-escalation
    priority: 700
    match: { events: [recovery] }
    action: { gate: { type: recovery_escalation } }
    reason: Recovery needs a person's guidance.
  - id: destructive-action-approval
    priority: 700
    match: { events: [destructive_action] }
    action: { gate: { type: destructive_action, risk: high } }
    reason: The change removes tests, coverage or features; a person approves it.
  - id: false-positive-override
    priority: 700
    match: { events: [false_positive] }
    action: { gate: { type: false_positive_override } }
    reason: A person decides whether the detection was a false positive.
  - id: phase-review
    priority: 700
    match: { events: [phase_boundary] }
    action: { gate: { type: phase_review } }
    reason: The autonomy level freezes the run at this phase boundary for review.

  # Commands the command reader proves read-only: listing, reading and searching inside the
  # workspace, git status/diff/log; never secrets, paths outside the workspace or the network.
  - id: read-only-commands
    priority: 450
    condition: readOnlyCommand()
    action: allow
    reason: The command only lists, reads or searches inside the workspace; it needs no approval.

  # Free-text operations the approval seed lists as needing no approval.
  - id: core-free-text-no-approval
    priority: 200
    condition: operationKind() in ["external_api_call", "agent_spawn", "file_read"]
    action: allow
    reason: Calling an external API, spawning an agent or reading files needs no approval.

  # Core defaults.
  - id: core-file-deletion
    priority: 400
    match: { tools: [delete_file, remove_file, unlink, rm] }
    action: { gate: { type: tool_call } }
    reason: File deletion needs approval.
  - id: core-shell-execution
    priority: 400
    match: { tools: [shell_execute, shell, bash, Bash, exec, run_command] }
    action: { gate: { type: tool_call } }
    reason: Shell command execution needs approval.
  - id: core-file-reads
    priority: 200
    match: { tools: [read_file, Read, Glob, Grep, LS] }
    action: allow
    reason: File reads need no approval.
  - id: core-external-api-calls
    priority: 200
    match: { tools: [http_request, api_call, WebFetch, WebSearch] }
    action: allow
    reason: External API calls need no approval.
  - id: core-agent-spawning
    priority: 200
    match: { tools: [spawn_agent, create_agent, Task] }
    action: allow
    reason: Spawning agents needs no approval.

  # Claude Code's own tools (its reads, Bash and web tools are in the core rules above).
  - id: claude-code-read-only
    priority: 200
    match: { tools: [NotebookRead, TodoWrite, BashOutput, Agent] }
    action: allow
    reason: Claude Code tool that reads, keeps its task list or starts a subagent; needs no approval.
  - id: claude-code-file-edits
    priority: 300
    match: { tools: [Edit, Write, MultiEdit, NotebookEdit] }
    action: { gate: { type: tool_call } }
    reason: Claude Code file edit changes the workspace; approve yes, always or no (secret and production files always wait).
  - id: claude-code-mcp-tools
    priority: 300
    condition: 'tool != null && tool.startsWith("mcp__")'
    action: { gate: { type: tool_call } }
    reason: Tool of an MCP server Claude Code is connected to; its effects are unknown, so a person approves it.

  # Per-tool categories (cowork mode).
  - id: cowork-auto-approved
    priority: 300
    match:
      tools: [read_file, search_files, list_directory, glob_find, ripgrep_search, analyze_code, ask_user, web_search, web_fetch, task_tracker]
    action: allow
    reason: Read-only tool; never prompted.
  - id: cowork-needs-approval
    priority: 300
    match: { tools: [write_file, edit_file, delete_file, move_file, shell_execute, git_command] }
    action: { gate: { type: tool_call } }
    reason: This tool changes the workspace; approve yes, always or no.
`;

/** The built-in policy, parsed: gate by default, seed rules for what proceeds and what waits. */
export const DEFAULT_POLICY: Policy = policySchema.parse(parseYaml(DEFAULT_POLICY_YAML));
