import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { removeStoredFiles } from '#app/models/courses/courses-admin.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { type FileStorage, getStorage } from '#app/services/storage/index.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Database } from '#db/types.ts'
import { createUser, findUserByEmail, normalizeEmail, storedFilesOf } from './users.server.ts'

/** The user table shows at most this many rows; a search narrows it down. */
export const USER_LIST_LIMIT = 200

/** Escapes LIKE wildcards so a search for '50%' matches those characters literally. */
export function likePattern(query: string) {
	return `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** Students (a missing role counts as student), newest first, optionally matching a name or e-mail. */
export async function listStudents(db: Kysely<Database>, { query, limit = USER_LIST_LIMIT }: { query?: string; limit?: number } = {}) {
	let select = db
		.selectFrom('profiles')
		.innerJoin('users', 'users.id', 'profiles.id')
		.select(['profiles.id', 'profiles.name', 'profiles.role', 'profiles.created_at', 'users.email'])
		.where((eb) => eb.or([eb('profiles.role', '=', 'student'), eb('profiles.role', 'is', null)]))
	if (query) {
		const pattern = likePattern(query)
		select = select.where((eb) => eb.or([eb('profiles.name', 'ilike', pattern), eb('users.email', 'ilike', pattern)]))
	}
	const rows = await select
		.orderBy('profiles.created_at', 'desc')
		.orderBy('profiles.id')
		.limit(limit + 1)
		.execute()
	return {
		users: rows.slice(0, limit).map((row) => ({
			id: row.id,
			name: row.name,
			email: row.email,
			role: row.role ?? 'student',
			createdAt: row.created_at.toISOString(),
		})),
		truncated: rows.length > limit,
	}
}

/** A refusal whose message is the reason shown after 'Failed to …: '. */
export class AdminUserError extends Error {}

/**
 * Promotes a designated account (docs/decisions/013: its e-mail is in ADMIN_EMAILS) to admin.
 * Throws AdminUserError with the reason otherwise.
 */
export async function promoteToAdmin(db: Kysely<Database>, actorId: string, userId: string, adminEmails: readonly string[]) {
	return db.transaction().execute(async (trx) => {
		const user = await trx
			.selectFrom('users')
			.innerJoin('profiles', 'profiles.id', 'users.id')
			.select(['users.id', 'users.email', 'profiles.name', 'profiles.role'])
			.where('users.id', '=', userId)
			.forUpdate()
			.executeTakeFirst()
		if (!user) throw new AdminUserError('User not found')
		if (user.role === 'admin') throw new AdminUserError('User is already an admin')
		if (!adminEmails.includes(normalizeEmail(user.email))) {
			throw new AdminUserError('This account is not designated as an administrator')
		}
		await trx.updateTable('profiles').set({ role: 'admin', updated_at: new Date() }).where('id', '=', userId).execute()
		await recordAudit(trx, {
			actorId,
			action: 'user.promote',
			entity: 'user',
			entityId: userId,
			details: { email: user.email, name: user.name, from: user.role ?? 'student', to: 'admin' },
		})
		return { id: user.id, name: user.name, email: user.email }
	})
}

/**
 * Deletes a student's account in one transaction: sessions, tokens, enrollments, seat
 * holds, messages (sent and received, with their attachment rows) and submissions
 * cascade; payments stay, detached. Stored files go after commit. An admin can remove
 * neither themself nor another admin or instructor here.
 */
export async function removeUser(db: Kysely<Database>, actorId: string, userId: string, storage: FileStorage = getStorage()) {
	const removed = await db.transaction().execute(async (trx) => {
		if (userId === actorId) throw new AdminUserError('You cannot remove your own account')
		const user = await trx
			.selectFrom('users')
			.leftJoin('profiles', 'profiles.id', 'users.id')
			.select(['users.id', 'users.email', 'profiles.name', 'profiles.role'])
			.where('users.id', '=', userId)
			.forUpdate('users')
			.executeTakeFirst()
		if (!user) throw new AdminUserError('User not found')
		if (user.role && user.role !== 'student') throw new AdminUserError('Only student accounts can be removed here')

		const { submissions, attachments, keys } = await storedFilesOf(trx, userId)
		const courses = await trx.selectFrom('enrollments').select('course_id').where('user_id', '=', userId).execute()
		const heldCourses = await trx.selectFrom('seat_holds').select('course_id').where('user_id', '=', userId).execute()
		const counts = await trx
			.selectNoFrom((eb) => [
				eb.selectFrom('sessions').select(eb.fn.countAll().as('n')).where('user_id', '=', userId).as('sessions'),
				eb
					.selectFrom('messages')
					.select(eb.fn.countAll().as('n'))
					.where((w) => w.or([w('sender_id', '=', userId), w('receiver_id', '=', userId)]))
					.as('messages'),
			])
			.executeTakeFirstOrThrow()

		await trx.deleteFrom('users').where('id', '=', userId).execute()
		await recordAudit(trx, {
			actorId,
			action: 'user.remove',
			entity: 'user',
			entityId: userId,
			details: {
				email: user.email,
				name: user.name,
				sessions: Number(counts.sessions),
				enrollments: courses.length,
				messages: Number(counts.messages),
				attachments: attachments.length,
				submissions: submissions.length,
			},
		})
		const touchedCourses = new Set([...courses, ...heldCourses].map((row) => row.course_id))
		for (const courseId of touchedCourses) await publishEvent(trx, { type: 'enrollment.changed', courseId, userId })
		return {
			user: { id: user.id, email: user.email, name: user.name ?? '' },
			keys,
		}
	})
	// Everything under messages/{userId}/ was uploaded by this user, whose messages are all gone.
	const filesRemoved = await removeStoredFiles(db, storage, removed.keys, [`messages/${userId}/`])
	return { user: removed.user, filesRemoved }
}

export type AdminAccountInput = { email: string; name: string; password?: string }

/**
 * `npm run admin:create`: creates a confirmed admin, or promotes (and confirms) an
 * existing account. A password is generated for a new account when none is given.
 */
export async function createOrPromoteAdmin(db: Kysely<Database>, input: AdminAccountInput) {
	const email = normalizeEmail(input.email)
	return db.transaction().execute(async (trx) => {
		const existing = await findUserByEmail(trx, email)
		if (existing) {
			const now = new Date()
			const profile = await trx
				.updateTable('profiles')
				.set({ role: 'admin', updated_at: now })
				.where('id', '=', existing.id)
				.returning('id')
				.executeTakeFirst()
			if (!profile) await trx.insertInto('profiles').values({ id: existing.id, name: input.name.trim(), role: 'admin' }).execute()
			await trx
				.updateTable('users')
				.set({
					email_confirmed_at: existing.email_confirmed_at ?? now,
					...(input.password ? { password_hash: await hashPassword(input.password) } : {}),
					updated_at: now,
				})
				.where('id', '=', existing.id)
				.execute()
			await recordAudit(trx, {
				actorId: null,
				action: 'user.promote',
				entity: 'user',
				entityId: existing.id,
				details: { email, from: existing.role ?? 'student', to: 'admin', via: 'admin:create', passwordSet: Boolean(input.password) },
			})
			return { id: existing.id, email, created: false, generatedPassword: null }
		}
		const generatedPassword = input.password ? null : randomBytes(18).toString('base64url')
		const user = await createUser(trx, {
			email,
			name: input.name,
			password: input.password ?? generatedPassword!,
			role: 'admin',
			confirmed: true,
		})
		await recordAudit(trx, {
			actorId: null,
			action: 'user.create',
			entity: 'user',
			entityId: user.id,
			details: { email, role: 'admin', via: 'admin:create' },
		})
		return { id: user.id, email, created: true, generatedPassword }
	})
}
