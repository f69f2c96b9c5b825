import { hash, verify } from '@node-rs/argon2'

/**
 * argon2id with the OWASP baseline: 19 MiB of memory, 2 passes, 1 lane.
 * The parameters are stored in the hash, so raising them later still verifies old hashes.
 */
const ARGON2ID = 2
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string) {
	return hash(password, PASSWORD_HASH_OPTIONS)
}

export async function verifyPassword(passwordHash: string, password: string) {
	try {
		return await verify(passwordHash, password)
	} catch {
		return false
	}
}
