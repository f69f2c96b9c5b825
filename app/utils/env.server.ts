import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { parseSigningKey } from './signing-key.server.ts'

const booleanString = z
	.enum(['true', 'false', '1', '0', 'yes', 'no', ''])
	.optional()
	.transform((value) => value === 'true' || value === '1' || value === 'yes')

const optionalString = z
	.string()
	.optional()
	.transform((value) => (value?.trim() ? value.trim() : undefined))

const EnvSchema = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
	HOST: z.string().default('0.0.0.0'),
	PORT: z.coerce.number().int().min(1).max(65535).default(3000),
	APP_URL: optionalString.pipe(z.url().optional()),
	DATA_DIR: z.string().default('./data'),
	ALLOW_EMBEDDED_DEFAULTS: booleanString,
	DATABASE_URL: optionalString,
	DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
	SESSION_SECRET: optionalString,
	/** The school's Ed25519 key that signs certificates (docs/decisions/049): a private JWK or a PKCS #8 PEM. */
	CERTIFICATE_SIGNING_KEY: optionalString,
	TRUST_PROXY: z.coerce.number().int().min(0).default(0),
	S3_BUCKET: optionalString,
	S3_ENDPOINT: optionalString,
	S3_REGION: z.string().default('us-east-1'),
	S3_ACCESS_KEY_ID: optionalString,
	S3_SECRET_ACCESS_KEY: optionalString,
	S3_FORCE_PATH_STYLE: booleanString,
	STRIPE_SECRET_KEY: optionalString,
	STRIPE_WEBHOOK_SECRET: optionalString,
	STRIPE_API_URL: optionalString,
	SMTP_URL: optionalString,
	MAIL_FROM: z.string().default('Real Estate Mentorship <no-reply@example.com>'),
	CONTACT_EMAIL: z.string().default('info@realestatementorship.example'),
	ADMIN_EMAILS: z
		.string()
		.default('')
		.transform((value) =>
			value
				.split(',')
				.map((email) => email.trim().toLowerCase())
				.filter(Boolean),
		),
	MAX_UPLOAD_MB: z.coerce.number().positive().default(50),
	/** LibreOffice's soffice for Office previews: found on PATH when unset; 'off' turns previews off. */
	LIBREOFFICE_PATH: optionalString,
	EVENT_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).default(20),
	LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
	WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
})

export type Env = Omit<z.infer<typeof EnvSchema>, 'WEB_CONCURRENCY'> & {
	APP_URL: string
	SESSION_SECRET: string
	secureCookies: boolean
	/** Server processes sharing the port: one per CPU unless set. */
	WEB_CONCURRENCY: number
}

/** Secrets that production must be given explicitly unless the operator opts in to the embedded defaults. */
const productionSecrets = [
	'APP_URL',
	'DATABASE_URL',
	'SESSION_SECRET',
	'CERTIFICATE_SIGNING_KEY',
	'S3_BUCKET',
	'STRIPE_SECRET_KEY',
	'STRIPE_WEBHOOK_SECRET',
	'SMTP_URL',
] as const

export function parseEnv(source: NodeJS.ProcessEnv): Env {
	const result = EnvSchema.safeParse(source)
	if (!result.success) {
		const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
		throw new Error(`Invalid configuration:\n${problems.join('\n')}`)
	}
	const parsed = result.data
	if (parsed.NODE_ENV === 'production' && !parsed.ALLOW_EMBEDDED_DEFAULTS) {
		const missing = productionSecrets.filter((name) => !parsed[name])
		if (missing.length > 0) {
			throw new Error(
				`Missing configuration for production: ${missing.join(', ')}. ` +
					'Set them, or set ALLOW_EMBEDDED_DEFAULTS=true to run on the embedded defaults.',
			)
		}
	}
	// A key that cannot sign stops the start, not the first certificate.
	if (parsed.CERTIFICATE_SIGNING_KEY) parseSigningKey(parsed.CERTIFICATE_SIGNING_KEY)
	if (parsed.STRIPE_SECRET_KEY && !parsed.STRIPE_WEBHOOK_SECRET) {
		throw new Error('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set.')
	}
	if (parsed.S3_BUCKET && (!parsed.S3_ACCESS_KEY_ID || !parsed.S3_SECRET_ACCESS_KEY)) {
		throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when S3_BUCKET is set.')
	}
	const appUrl = (parsed.APP_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, '')
	return {
		...parsed,
		APP_URL: appUrl,
		SESSION_SECRET: parsed.SESSION_SECRET ?? embeddedSessionSecret(parsed.DATA_DIR),
		secureCookies: appUrl.startsWith('https://'),
		WEB_CONCURRENCY: parsed.WEB_CONCURRENCY ?? os.availableParallelism(),
	}
}

/** The embedded default keeps a random secret in the data directory so sessions survive restarts. */
function embeddedSessionSecret(dataDir: string) {
	const file = path.resolve(dataDir, 'session-secret')
	try {
		return fs.readFileSync(file, 'utf8').trim()
	} catch {
		const secret = randomBytes(32).toString('hex')
		fs.mkdirSync(path.dirname(file), { recursive: true })
		fs.writeFileSync(file, secret, { mode: 0o600 })
		return secret
	}
}

/**
 * The database of the app process. Unset DATABASE_URL means the embedded server, which the
 * launcher (scripts/server.ts and the other scripts) starts and then names in DATABASE_URL.
 */
export function requireDatabaseUrl(env: Pick<Env, 'DATABASE_URL'>) {
	if (!env.DATABASE_URL) {
		throw new Error('DATABASE_URL is not set: start the app with scripts/server.ts (npm start), which starts the embedded PostgreSQL.')
	}
	return env.DATABASE_URL
}

let cached: Env | undefined

export function getEnv(): Env {
	cached ??= parseEnv(process.env)
	return cached
}

/** For tests that change process.env between cases. */
export function resetEnvCache() {
	cached = undefined
}
