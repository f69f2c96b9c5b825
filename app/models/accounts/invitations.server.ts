import { randomBytes } from 'node:crypto'
import { type Kysely, sql, type Transaction } from 'kysely'
import { addCourseStaff, courseTitles } from '#app/models/courses/course-staff.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Database } from '#db/types.ts'
import { sendAccessChangedEmail, sendInvitationEmail } from './account-emails.server.ts'
import { consumeToken } from './auth-tokens.server.ts'
import { type InviteInput, staffCourseIds } from './invitations.ts'
import { confirmEmail, createUser, findUserByEmail, normalizeEmail, replacePasswordHash } from './users.server.ts'

/** A refusal whose message is shown to the admin as it is. */
export class InvitationError extends Error {}

export type InviteResult =
	/** A new account, or one that never proved its address: a (new) link was mailed. */
	| { kind: 'invited'; userId: string; resent: boolean }
	/** A confirmed account whose role or courses changed: told by mail. */
	| { kind: 'updated'; userId: string }
	/** A confirmed account that already had this role and these courses: nothing written. */
	| { kind: 'unchanged'; userId: string }

/**
 * Invites a person (docs/decisions/055). A new address gets an account without a usable password and
 * an e-mail with a single-use link (7 days) to set one; an unconfirmed account gets a new link that
 * replaces the earlier one. A confirmed account keeps its password: its role and courses change and
 * it is told. Courses are added, never removed here (the course's Staff page removes). An admin's
 * account, the inviter's own included, is refused: inviting would demote it.
 */
export async function inviteUser(db: Kysely<Database>, actorId: string, input: InviteInput): Promise<InviteResult> {
	const email = normalizeEmail(input.email)
	// Hashed before the lock: no one can sign in with it, and hashing is slow.
	const unusableHash = await hashPassword(randomBytes(32).toString('base64url'))
	return db.transaction().execute(async (trx) => {
		// One invitation of an address at a time: the same form posted twice makes one account and one live link.
		await sql`SELECT pg_advisory_xact_lock(hashtext(${`invite:${email}`}))`.execute(trx)
		const existing = await findUserByEmail(trx, email)
		if (existing?.id === actorId) throw new InvitationError('You cannot invite yourself: it would take away your admin role.')
		if (existing?.role === 'admin') throw new InvitationError('This address belongs to an administrator; their role is not changed here.')
		const courseIds = staffCourseIds(input)

		if (!existing) {
			const user = await createUser(trx, { email, name: input.name, passwordHash: unusableHash, role: input.role })
			await addCourseStaff(trx, actorId, user.id, courseIds)
			await recordAudit(trx, {
				actorId,
				action: 'user.invite',
				entity: 'user',
				entityId: user.id,
				details: { email, name: input.name, role: input.role, courses: await courseTitles(trx, courseIds) },
			})
			await sendInvitationEmail(trx, {
				id: user.id,
				email,
				name: input.name,
				role: input.role,
				courses: await courseTitles(trx, courseIds),
			})
			return { kind: 'invited', userId: user.id, resent: false }
		}

		const changed = await changeRoleAndCourses(trx, actorId, existing, input.role, courseIds)
		if (!existing.email_confirmed_at) {
			await recordAudit(trx, {
				actorId,
				action: 'user.invite',
				entity: 'user',
				entityId: existing.id,
				details: { email, name: existing.name, role: input.role, courses: await courseTitles(trx, courseIds), resent: true },
			})
			await sendInvitationEmail(trx, {
				id: existing.id,
				email,
				name: existing.name,
				role: input.role,
				courses: await courseTitles(trx, courseIds),
			})
			return { kind: 'invited', userId: existing.id, resent: true }
		}
		if (!changed) return { kind: 'unchanged', userId: existing.id }
		await sendAccessChangedEmail(trx, {
			email,
			name: existing.name,
			role: input.role,
			courses: await courseTitles(trx, changed.addedCourseIds),
		})
		return { kind: 'updated', userId: existing.id }
	})
}

/** Sets the role (a new student stops teaching every course) and adds the courses; null when nothing changed. */
async function changeRoleAndCourses(
	trx: Transaction<Database>,
	actorId: string,
	user: { id: string; email: string; name: string | null; role: string | null },
	role: InviteInput['role'],
	courseIds: number[],
) {
	const from = user.role ?? 'student'
	if (from !== role) {
		await trx.updateTable('profiles').set({ role, updated_at: new Date() }).where('id', '=', user.id).execute()
		if (role !== 'instructor') await trx.deleteFrom('course_staff').where('user_id', '=', user.id).execute()
		await recordAudit(trx, {
			actorId,
			action: 'user.role',
			entity: 'user',
			entityId: user.id,
			details: { email: user.email, from, to: role },
		})
	}
	const addedCourseIds = await addCourseStaff(trx, actorId, user.id, courseIds)
	return from !== role || addedCourseIds.length > 0 ? { addedCourseIds } : null
}

/**
 * Spends the invitation: sets the password and confirms the address in one transaction, ending any
 * earlier session. False when another request spent the link first.
 */
export async function acceptInvitation(db: Kysely<Database>, tokenId: string, userId: string, password: string) {
	const passwordHash = await hashPassword(password)
	return db.transaction().execute(async (trx) => {
		if (!(await consumeToken(trx, tokenId))) return false
		await replacePasswordHash(trx, userId, passwordHash)
		await confirmEmail(trx, userId)
		return true
	})
}
