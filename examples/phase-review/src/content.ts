/** The files the scripted agent writes: a plan in phase 1, the result in phase 2. */

export const PLAN_MD = `# Plan

Goal: summarize the three sample reports into one page.

1. Read the reports in input/.
2. List the findings they share.
3. Write the summary to output/result.md.

Risk: the reports use different units.
`;

export const WORKSPACE_MD = `# Workspace

Notes the agent keeps between phases.

- Phase 1 (strategic): plan.md
- Phase 2 (tactical): output/result.md
`;

export const PHASE_1_RETROSPECTIVE = `Phase 1 (strategic): the plan

Wrote plan.md (three steps and one risk) and workspace.md (the notes kept between phases).`;

/** The phase 2 result, built from the plan as the review left it. */
export function resultMd(plan: string): string {
  const steps = plan.split('\n').filter((line) => /^\d+\. /.test(line));
  return [
    '# Result',
    '',
    `Followed the reviewed plan (${steps.length} steps):`,
    '',
    ...steps.map((step) => `- [x] ${step.replace(/^\d+\. /, '')}`),
    '',
    'Shared finding: every report names the same risk.',
    '',
  ].join('\n');
}

export const PHASE_2_RETROSPECTIVE = `Phase 2 (tactical): the result

Wrote output/result.md from the plan as reviewed.`;
