import { generateKeyPairSync } from 'node:crypto'
import { afterEach, vi } from 'vitest'

process.env.NODE_ENV = 'test'
process.env.SESSION_SECRET ??= 'test-session-secret'
process.env.LOG_LEVEL ??= 'silent'
// The school's signing key for certificates, so tests write no key file into ./data.
process.env.CERTIFICATE_SIGNING_KEY ??= JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }))

afterEach(() => {
	vi.restoreAllMocks()
})
