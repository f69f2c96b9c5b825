import os from 'node:os'
import path from 'node:path'
import { LocalFileStorage } from '#app/services/storage/local.server.ts'
import { databaseUrl } from './postgres.ts'

/** The environment of the production server the end-to-end tests drive. */
export function e2eServerEnv() {
	const name = process.env.E2E_DATABASE_NAME
	if (!name) throw new Error('E2E_DATABASE_NAME is not set (tests/playwright.config.ts sets it).')
	return {
		NODE_ENV: 'production',
		ALLOW_EMBEDDED_DEFAULTS: 'true',
		PORT: process.env.E2E_PORT ?? '3900',
		HOST: '127.0.0.1',
		APP_URL: `http://localhost:${process.env.E2E_PORT ?? '3900'}`,
		DATABASE_URL: databaseUrl(name),
		DATA_DIR: path.join(os.tmpdir(), name),
		SESSION_SECRET: process.env.E2E_SESSION_SECRET ?? 'e2e-session-secret',
		ADMIN_EMAILS: 'designated-admin@example.com',
		// Each test browses from an address of its own (X-Forwarded-For), so per-address rate limits
		// apply per test, as they would to separate visitors.
		TRUST_PROXY: '1',
		LOG_LEVEL: 'warn',
		// One process: some specs watch a process's own page cache (MISS, then HIT). Several
		// workers are tested by tests/e2e/cluster.spec.ts.
		WEB_CONCURRENCY: '1',
	}
}

/** The e2e server's file store: local disk under its DATA_DIR/files, for specs that put or check stored files. */
export function e2eServerStorage() {
	return new LocalFileStorage(path.join(e2eServerEnv().DATA_DIR, 'files'))
}
