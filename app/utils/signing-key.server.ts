import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** The embedded default's file under DATA_DIR: generated once, then read at every start. */
export const EMBEDDED_SIGNING_KEY_FILE = 'certificate-signing-key.jwk'

/**
 * The school's Ed25519 private key from its configured text: a private JWK (JSON, `kty: OKP`,
 * `crv: Ed25519`, with `d`) or a PKCS #8 PEM. Throws a message naming the variable otherwise.
 */
export function parseSigningKey(text: string): KeyObject {
	let key: KeyObject
	try {
		key = text.trimStart().startsWith('{')
			? createPrivateKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' })
			: createPrivateKey({ key: text, format: 'pem' })
	} catch {
		throw new Error('CERTIFICATE_SIGNING_KEY is neither a private JWK nor a PKCS #8 PEM private key.')
	}
	if (key.asymmetricKeyType !== 'ed25519') throw new Error('CERTIFICATE_SIGNING_KEY must be an Ed25519 key.')
	return key
}

/**
 * The key from the environment, or the embedded default's: generated into the data folder the
 * first time and read from there afterwards. The file is created exclusively, so processes
 * starting together agree on one key.
 */
export function loadSigningKey(env: { CERTIFICATE_SIGNING_KEY?: string; DATA_DIR: string }): KeyObject {
	if (env.CERTIFICATE_SIGNING_KEY) return parseSigningKey(env.CERTIFICATE_SIGNING_KEY)
	const file = path.resolve(env.DATA_DIR, EMBEDDED_SIGNING_KEY_FILE)
	if (!fs.existsSync(file)) {
		const { privateKey } = generateKeyPairSync('ed25519')
		fs.mkdirSync(path.dirname(file), { recursive: true })
		try {
			fs.writeFileSync(file, JSON.stringify(privateKey.export({ format: 'jwk' })), { mode: 0o600, flag: 'wx' })
		} catch (error) {
			// Another process wrote it first: theirs is the key.
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
		}
	}
	return parseSigningKey(fs.readFileSync(file, 'utf8'))
}

/** The public half as a JWK (`kty`, `crv`, `x` only): what the site publishes in its DID document. */
export function publicJwk(privateKey: KeyObject) {
	const { kty, crv, x } = createPublicKey(privateKey).export({ format: 'jwk' })
	return { kty: kty as string, crv: crv as string, x: x as string }
}
