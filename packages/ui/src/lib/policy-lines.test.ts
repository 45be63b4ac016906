import type { PolicyIssue } from 'gatehouse-hitl-core';
import { describe, expect, it } from 'vitest';
import { issueLine, issueSubject } from './policy-lines.js';

const POLICY = `# a policy
name: demo
defaultAction: gate
rules:
  # reads first
  - id: reads
    priority: 200
    match: { tools: [read_file] }
    action: allow
    reason: reads are safe
  - id: shell
    priority: 400
    condition: 'tool ==='
    action: { gate: { type: tool_call } }
    reason: shell needs approval
`;

const issue = (fields: Partial<PolicyIssue>): PolicyIssue => ({
  ruleId: null,
  ruleIndex: null,
  path: '',
  message: 'bad',
  ...fields,
});

describe('issueLine', () => {
  it('points at the field of the rule the issue names', () => {
    expect(issueLine(POLICY, issue({ ruleId: 'shell', ruleIndex: 1, path: 'rules[1].condition' }))).toBe(13);
  });

  it('points at the rule when the field is not written out (e.g. a missing field)', () => {
    expect(issueLine(POLICY, issue({ ruleId: 'reads', ruleIndex: 0, path: 'rules[0].description' }))).toBe(6);
  });

  it('finds top-level keys and the line a parse error names', () => {
    expect(issueLine(POLICY, issue({ path: 'defaultAction' }))).toBe(3);
    expect(issueLine('a: [', issue({ message: 'not valid YAML: Flow sequence at line 1, column 4' }))).toBe(
      1,
    );
    expect(issueLine(POLICY, issue({ message: 'no idea' }))).toBeNull();
  });

  it('falls back to the rule id for flow or JSON policies', () => {
    const json = '{\n  "name": "p",\n  "rules": [\n    { "id": "x", "priority": "high" }\n  ]\n}';
    expect(issueLine(json, issue({ ruleId: 'x', ruleIndex: 0, path: 'rules[0].priority' }))).toBe(4);
  });

  it('handles list items at the same indent as the rules key', () => {
    const flat = 'name: p\nrules:\n- id: a\n  action: allow\n- id: b\n  action: nope\n';
    expect(issueLine(flat, issue({ ruleId: 'b', ruleIndex: 1, path: 'rules[1].action' }))).toBe(6);
  });
});

describe('issueSubject', () => {
  it('names the rule by id, else by position', () => {
    expect(issueSubject(issue({ ruleId: 'shell', ruleIndex: 1 }))).toBe('Rule “shell”');
    expect(issueSubject(issue({ ruleIndex: 2 }))).toBe('Rule 3 (no id)');
    expect(issueSubject(issue({}))).toBe('Policy');
  });
});
