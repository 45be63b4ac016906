import { z } from 'zod';
import { roleSchema } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { nameSchema, userIdSchema } from './ids.js';
import { userDocumentSchema } from './people.js';

/** `POST /v1/users`. */
export const createUserBodySchema = z.strictObject({
  name: nameSchema.describe('Login name, unique'),
  password: z.string().min(12).max(200).describe('At least 12 characters'),
  role: roleSchema.describe('viewer < developer < tech_lead < admin'),
});

/** `PATCH /v1/users/:id`. */
export const updateUserBodySchema = z
  .strictObject({
    role: roleSchema.optional().describe('New role; applies to the next request'),
    disabled: z.boolean().optional().describe('true revokes every session of the person'),
  })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, {
    message: 'give role or disabled',
    path: ['role'],
  });

/** `:id` of every `/v1/users/:id…` route. */
export const userParamsSchema = z.strictObject({ id: userIdSchema });

export const userResponseSchema = z.object({ user: userDocumentSchema });

export const userListResponseSchema = z.object({ users: z.array(userDocumentSchema) });

/** `POST /v1/users/:id/login-link`. */
export const loginLinkResponseSchema = z.object({
  token: z.string().describe('One-time login link token (ghl_…); shown only this once'),
  expiresAt: z.number().describe('Epoch ms; the link works once, until then'),
  path: z.string().describe('Where the person opens it: /login#token=…, after the server address'),
});

/** `POST /v1/host/login-link`: only with the running server's host secret, from the server host. */
export const hostLoginLinkBodySchema = z.strictObject({
  name: z.string().min(1).max(200).optional().describe('The person’s login name (default: the first admin)'),
});

export const hostLoginLinkResponseSchema = z.object({
  userId: z.string(),
  name: z.string(),
  token: z.string().describe('One-time login link token (ghl_…); shown only this once'),
  expiresAt: z.number().describe('Epoch ms; the link works once, until then'),
  path: z.string().describe('Where the person opens it: /login#token=…, after the server address'),
});

export type CreateUserBody = z.input<typeof createUserBodySchema>;
export type UpdateUserBody = z.input<typeof updateUserBodySchema>;
export type UserResponse = z.infer<typeof userResponseSchema>;
export type UserListResponse = z.infer<typeof userListResponseSchema>;
export type LoginLinkResponse = z.infer<typeof loginLinkResponseSchema>;
export type HostLoginLinkBody = z.input<typeof hostLoginLinkBodySchema>;
export type HostLoginLinkResponse = z.infer<typeof hostLoginLinkResponseSchema>;

const tags = ['people'];
const params = userParamsSchema;

/** The people routes, managed by admins. */
export const userRoutes = {
  list: defineRoute({ method: 'GET', path: '/v1/users', tags, response: { 200: userListResponseSchema } }),
  create: defineRoute({
    method: 'POST',
    path: '/v1/users',
    tags,
    body: createUserBodySchema,
    response: { 201: userResponseSchema },
  }),
  issueLoginLink: defineRoute({
    method: 'POST',
    path: '/v1/users/:id/login-link',
    tags,
    params,
    response: { 201: loginLinkResponseSchema },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/v1/users/:id',
    tags,
    params,
    body: updateUserBodySchema,
    response: { 200: userResponseSchema },
  }),
};
