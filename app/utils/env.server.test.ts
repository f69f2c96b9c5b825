import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.server.ts'

const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'env-test-'))

describe('configuration', () => {
	test('development runs on the embedded defaults', () => {
		const env = parseEnv({ NODE_ENV: 'development', DATA_DIR: dataDir() })
		expect(env.DATABASE_URL).toBeUndefined()
		expect(env.PORT).toBe(3000)
		expect(env.APP_URL).toBe('http://localhost:3000')
		expect(env.MAX_UPLOAD_MB).toBe(50)
		expect(env.secureCookies).toBe(false)
		expect(env.SESSION_SECRET).toMatch(/^[0-9a-f]{64}$/)
	})

	test('the embedded session secret is kept across starts', () => {
		const dir = dataDir()
		expect(parseEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe(parseEnv({ DATA_DIR: dir }).SESSION_SECRET)
	})

	test('production refuses to start without its secrets', () => {
		expect(() => parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(
			/Missing configuration for production: APP_URL, DATABASE_URL, SESSION_SECRET, S3_BUCKET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SMTP_URL/,
		)
	})

	test('production may opt in to the embedded defaults', () => {
		const env = parseEnv({ NODE_ENV: 'production', ALLOW_EMBEDDED_DEFAULTS: 'true', DATA_DIR: dataDir() })
		expect(env.NODE_ENV).toBe('production')
	})

	test('an https APP_URL turns on secure cookies', () => {
		const env = parseEnv({ APP_URL: 'https://school.example/', DATA_DIR: dataDir(), SESSION_SECRET: 's' })
		expect(env.APP_URL).toBe('https://school.example')
		expect(env.secureCookies).toBe(true)
	})

	test('partial third-party settings are refused', () => {
		expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_x', DATA_DIR: dataDir() })).toThrow(/STRIPE_WEBHOOK_SECRET/)
		expect(() => parseEnv({ S3_BUCKET: 'b', DATA_DIR: dataDir() })).toThrow(/S3_ACCESS_KEY_ID/)
	})

	test('invalid values are reported by name', () => {
		expect(() => parseEnv({ PORT: 'eighty', DATA_DIR: dataDir() })).toThrow(/PORT/)
		expect(() => parseEnv({ APP_URL: 'not a url', DATA_DIR: dataDir() })).toThrow(/APP_URL/)
	})

	test('ADMIN_EMAILS is a lower-cased list', () => {
		expect(parseEnv({ ADMIN_EMAILS: ' Boss@Example.com, second@example.com ,', DATA_DIR: dataDir() }).ADMIN_EMAILS).toEqual([
			'boss@example.com',
			'second@example.com',
		])
	})

	test('WEB_CONCURRENCY: one process per CPU unless set, on an external and on the embedded database alike', () => {
		const postgres = { DATABASE_URL: 'postgres://db.example/app', DATA_DIR: dataDir() }
		expect(parseEnv(postgres).WEB_CONCURRENCY).toBe(os.availableParallelism())
		expect(parseEnv({ ...postgres, WEB_CONCURRENCY: '3' }).WEB_CONCURRENCY).toBe(3)
		expect(parseEnv({ DATA_DIR: dataDir() }).WEB_CONCURRENCY).toBe(os.availableParallelism())
		expect(parseEnv({ WEB_CONCURRENCY: '2', DATA_DIR: dataDir() }).WEB_CONCURRENCY).toBe(2)
		expect(() => parseEnv({ ...postgres, WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/)
	})
})
