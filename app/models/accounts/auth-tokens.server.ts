import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { INVITE_LINK_DAYS } from '#app/models/accounts/invitations.ts'
import { hashToken } from '#app/utils/session.server.ts'
import type { Database } from '#db/types.ts'

export type TokenPurpose = 'confirm_email' | 'reset_password' | 'invite'

const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
	confirm_email: 48 * 60 * 60 * 1000,
	reset_password: 60 * 60 * 1000,
	// An invitation waits for someone who did not ask for it (docs/decisions/055).
	invite: INVITE_LINK_DAYS * 24 * 60 * 60 * 1000,
}

/** Issues a single-use token; only its hash is stored. Earlier unused tokens of the same purpose stop working. */
export async function issueToken(db: Kysely<Database>, userId: string, purpose: TokenPurpose) {
	const token = randomBytes(32).toString('base64url')
	await db.deleteFrom('auth_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute()
	await db
		.insertInto('auth_tokens')
		.values({
			user_id: userId,
			purpose,
			token_hash: hashToken(token),
			expires_at: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
		})
		.execute()
	return token
}

export type TokenCheck = { status: 'valid'; userId: string; tokenId: string } | { status: 'missing' | 'invalid' | 'expired' | 'used' }

export async function checkToken(db: Kysely<Database>, token: string | null | undefined, purpose: TokenPurpose): Promise<TokenCheck> {
	if (!token) return { status: 'missing' }
	const row = await db
		.selectFrom('auth_tokens')
		.select(['id', 'user_id', 'expires_at', 'used_at'])
		.where('token_hash', '=', hashToken(token))
		.where('purpose', '=', purpose)
		.executeTakeFirst()
	if (!row) return { status: 'invalid' }
	if (row.used_at) return { status: 'used' }
	if (row.expires_at.getTime() <= Date.now()) return { status: 'expired' }
	return { status: 'valid', userId: row.user_id, tokenId: row.id }
}

/** Marks the token used; false when another request used it first. */
export async function consumeToken(db: Kysely<Database>, tokenId: string) {
	const result = await db
		.updateTable('auth_tokens')
		.set({ used_at: new Date() })
		.where('id', '=', tokenId)
		.where('used_at', 'is', null)
		.executeTakeFirst()
	return Number(result.numUpdatedRows) === 1
}
