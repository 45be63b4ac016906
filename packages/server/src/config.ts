import { resolve } from 'node:path';
import { z } from 'zod';

const booleanText = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  GATEHOUSE_HOST: z.string().default('127.0.0.1'),
  GATEHOUSE_PORT: z.coerce.number().int().min(0).max(65535).default(7300),
  GATEHOUSE_DATA_DIR: z.string().default('.gatehouse'),
  GATEHOUSE_DATABASE_URL: z.string().optional(),
  GATEHOUSE_DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .optional(),
  GATEHOUSE_PUBLIC_URL: z.string().url().optional(),
  GATEHOUSE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GATEHOUSE_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  GATEHOUSE_LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  CONFIDENCE_THRESHOLD: z.string().optional(),
  CONFIDENCE_ENABLED: booleanText.optional(),
  CONFIDENCE_AUTO_ESCALATE: booleanText.optional(),
});

/** Everything the server is configured with; the only place that reads process.env. */
export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  /** Postgres schema for every table (created when missing); null = the search path's. */
  databaseSchema: string | null;
  publicUrl: string | null;
  logLevel: string;
  sweepIntervalMs: number;
  loginAttemptsPerMinute: number;
  /** Raw CONFIDENCE_* variables, parsed by core's loadConfidenceConfig. */
  confidenceEnv: Record<string, string | undefined>;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** How long a gate request of a paused run is held for a resume before RUN_NOT_ACTIVE. */
  pausedRunHoldMs: number;
}

/** Reads the environment once, with command-line overrides on top. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid environment: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  return {
    host: e.GATEHOUSE_HOST,
    port: e.GATEHOUSE_PORT,
    dataDir: resolve(e.GATEHOUSE_DATA_DIR),
    databaseUrl: e.GATEHOUSE_DATABASE_URL ?? null,
    databaseSchema: e.GATEHOUSE_DATABASE_SCHEMA ?? null,
    publicUrl: e.GATEHOUSE_PUBLIC_URL ?? null,
    logLevel: e.GATEHOUSE_LOG_LEVEL,
    sweepIntervalMs: e.GATEHOUSE_SWEEP_INTERVAL_MS,
    loginAttemptsPerMinute: e.GATEHOUSE_LOGIN_ATTEMPTS_PER_MINUTE,
    confidenceEnv: {
      CONFIDENCE_THRESHOLD: env.CONFIDENCE_THRESHOLD,
      CONFIDENCE_ENABLED: env.CONFIDENCE_ENABLED,
      CONFIDENCE_AUTO_ESCALATE: env.CONFIDENCE_AUTO_ESCALATE,
    },
    bodyLimit: 1024 * 1024,
    pausedRunHoldMs: 25_000,
    ...overrides,
  };
}
