import { describeDeleteApprovalExample } from '../shared/testing/delete-approval-example.js';

describeDeleteApprovalExample(
  'Vercel AI SDK',
  new URL('./run.mjs', import.meta.url),
  /model: Done\. read_file → "# README\.md.*"; delete_file → "deleted build\/"/,
);
