import type { Kysely, Transaction } from 'kysely'
import { hashPassword, verifyPassword } from '#app/utils/password.server.ts'
import type { Database, Role } from '#db/types.ts'

export function normalizeEmail(email: string) {
	return email.trim().toLowerCase()
}

export async function findUserByEmail(db: Kysely<Database>, email: string) {
	return db
		.selectFrom('users')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.id', 'users.email', 'users.password_hash', 'users.email_confirmed_at', 'profiles.name', 'profiles.role'])
		.where('users.email', '=', normalizeEmail(email))
		.executeTakeFirst()
}

export type NewUser = {
	email: string
	name: string
	/** Either a password to hash or a hash made earlier (the registration draft keeps only the hash). */
	password?: string
	passwordHash?: string
	role?: Role
	confirmed?: boolean
}

/** Creates the account and its profile; call inside a transaction when more must happen atomically. */
export async function createUser(db: Kysely<Database>, input: NewUser) {
	const passwordHash = input.passwordHash ?? (input.password ? await hashPassword(input.password) : undefined)
	if (!passwordHash) throw new Error('createUser needs a password or a password hash')
	const user = await db
		.insertInto('users')
		.values({
			email: normalizeEmail(input.email),
			password_hash: passwordHash,
			email_confirmed_at: input.confirmed ? new Date() : null,
		})
		.returning(['id', 'email'])
		.executeTakeFirstOrThrow()
	await db
		.insertInto('profiles')
		.values({ id: user.id, name: input.name.trim(), role: input.role ?? 'student' })
		.execute()
	return user
}

export type LoginResult = { ok: true; userId: string } | { ok: false; reason: 'invalid-credentials' | 'email-not-confirmed' }

/** Checks the password; an unknown address costs the same hashing time as a known one. */
export async function verifyLogin(db: Kysely<Database>, email: string, password: string): Promise<LoginResult> {
	const user = await findUserByEmail(db, email)
	if (!user) {
		await hashPassword(password)
		return { ok: false, reason: 'invalid-credentials' }
	}
	if (!(await verifyPassword(user.password_hash, password))) return { ok: false, reason: 'invalid-credentials' }
	if (!user.email_confirmed_at) return { ok: false, reason: 'email-not-confirmed' }
	return { ok: true, userId: user.id }
}

export async function confirmEmail(db: Kysely<Database>, userId: string) {
	await db
		.updateTable('users')
		.set({ email_confirmed_at: new Date(), updated_at: new Date() })
		.where('id', '=', userId)
		.where('email_confirmed_at', 'is', null)
		.execute()
}

/** Sets a new password and ends every session but the one given (none for a reset). */
export async function setPassword(db: Kysely<Database>, userId: string, password: string, keepSessionId?: string) {
	const passwordHash = await hashPassword(password)
	await db.transaction().execute((trx) => replacePasswordHash(trx, userId, passwordHash, keepSessionId))
}

/** Stores a new password hash and ends the user's other sessions; run it in a transaction. */
export async function replacePasswordHash(trx: Transaction<Database>, userId: string, passwordHash: string, keepSessionId?: string) {
	await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', userId).execute()
	let sessions = trx.deleteFrom('sessions').where('user_id', '=', userId)
	if (keepSessionId) sessions = sessions.where('id', '<>', keepSessionId)
	await sessions.execute()
}

export async function checkPassword(db: Kysely<Database>, userId: string, password: string) {
	const user = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst()
	return user ? verifyPassword(user.password_hash, password) : false
}

export async function updateProfileName(db: Kysely<Database>, userId: string, name: string) {
	await db.updateTable('profiles').set({ name: name.trim(), updated_at: new Date() }).where('id', '=', userId).execute()
}

export async function getUserContact(db: Kysely<Database>, userId: string) {
	return db
		.selectFrom('users')
		.innerJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.id', 'users.email', 'users.email_confirmed_at', 'profiles.name'])
		.where('users.id', '=', userId)
		.executeTakeFirst()
}

/**
 * The stored files that are this person's: their hand-ins that carry a file and the attachments of the
 * messages they sent or received, as rows (what is counted) and as the keys to remove.
 */
export async function storedFilesOf(db: Kysely<Database>, userId: string) {
	const submissions = await db
		.selectFrom('assignment_submissions')
		.select('storage_key as key')
		.where('student_id', '=', userId)
		.where('storage_key', 'is not', null)
		.execute()
	const attachments = await db
		.selectFrom('message_attachments')
		.innerJoin('messages', 'messages.id', 'message_attachments.message_id')
		.select('message_attachments.storage_key as key')
		.where((eb) => eb.or([eb('messages.sender_id', '=', userId), eb('messages.receiver_id', '=', userId)]))
		.execute()
	const keys = [...submissions, ...attachments].map((row) => row.key).filter((key): key is string => key !== null)
	return { submissions, attachments, keys }
}
