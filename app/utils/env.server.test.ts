import { generateKeyPairSync } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.server.ts'
import { EMBEDDED_SIGNING_KEY_FILE, loadSigningKey, publicJwk } from './signing-key.server.ts'

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
			/Missing configuration for production: APP_URL, DATABASE_URL, SESSION_SECRET, CERTIFICATE_SIGNING_KEY, S3_BUCKET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SMTP_URL/,
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

	test('production refuses to start without the certificate signing key, or with one that cannot sign', () => {
		const complete = {
			NODE_ENV: 'production',
			DATA_DIR: dataDir(),
			APP_URL: 'https://school.example',
			DATABASE_URL: 'postgres://db/app',
			SESSION_SECRET: 's',
			S3_BUCKET: 'b',
			S3_ACCESS_KEY_ID: 'k',
			S3_SECRET_ACCESS_KEY: 's',
			STRIPE_SECRET_KEY: 'sk_live_x',
			STRIPE_WEBHOOK_SECRET: 'whsec_x',
			SMTP_URL: 'smtp://mail.example',
		}
		expect(() => parseEnv(complete)).toThrow(/Missing configuration for production: CERTIFICATE_SIGNING_KEY\./)
		const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
		expect(() => parseEnv({ ...complete, CERTIFICATE_SIGNING_KEY: rsa })).toThrow(/CERTIFICATE_SIGNING_KEY must be an Ed25519 key/)
		expect(() => parseEnv({ ...complete, CERTIFICATE_SIGNING_KEY: '{"kty":"OKP"}' })).toThrow(/CERTIFICATE_SIGNING_KEY is neither/)
		const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
		expect(parseEnv({ ...complete, CERTIFICATE_SIGNING_KEY: pem }).CERTIFICATE_SIGNING_KEY).toBe(pem.trim())
	})

	test('the embedded signing key is generated once into the data folder and read from there afterwards', () => {
		const dir = dataDir()
		const first = publicJwk(loadSigningKey({ DATA_DIR: dir }))
		const file = path.join(dir, EMBEDDED_SIGNING_KEY_FILE)
		expect(fs.statSync(file).mode & 0o777).toBe(0o600)
		expect(publicJwk(loadSigningKey({ DATA_DIR: dir }))).toEqual(first)
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: first.x })
		// A key from the environment wins, and the data folder's is left alone.
		const configured = generateKeyPairSync('ed25519').privateKey
		const fromEnv = loadSigningKey({ DATA_DIR: dir, CERTIFICATE_SIGNING_KEY: JSON.stringify(configured.export({ format: 'jwk' })) })
		expect(publicJwk(fromEnv)).toEqual(publicJwk(configured))
		expect(publicJwk(loadSigningKey({ DATA_DIR: dir }))).toEqual(first)
	})
})
