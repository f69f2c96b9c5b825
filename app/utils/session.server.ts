import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { Database, Role } from '#db/types.ts'
import { siteCookie } from './cookies.server.ts'
import { getDb } from './db.server.ts'

/** A session lasts at most 30 days, and ends after 7 days without a visit. */
const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000
const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000
/** last_seen_at is written at most this often, so browsing does not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 60 * 1000

export type SessionUser = {
	id: string
	email: string
	name: string
	/** The stored role; null when the profile has none. */
	storedRole: Role | null
	/** The role that permissions use: a missing role counts as student. */
	role: Role
	isAdmin: boolean
	emailConfirmed: boolean
	sessionId: string
	/** The IANA zone the person chose in Settings; null: each course's own. */
	timeZone: string | null
}

function sessionCookie() {
	return siteCookie('session', { maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 })
}

/** The database keeps only a hash of the token, so a leaked table cannot be replayed. */
export function hashToken(token: string) {
	return createHash('sha256').update(token).digest('hex')
}

/**
 * Cookie headers whose signature has been checked, with the token they carry and the
 * session id (its hash). The check (WebCrypto HMAC, a key import and a verify on the thread
 * pool) and the hash are a noticeable share of every signed-in request, and a header gives
 * the same answers every time, so each is worked out once per session. Only verified headers
 * are kept, so a forged one cannot push a real one out; the cache is bounded in characters,
 * since a header can be long.
 */
const verifiedCookieHeaders = new LRUCache<string, { token: string; sessionId: string }>({
	maxSize: 2_000_000,
	sizeCalculation: (session, header) => header.length + session.token.length + session.sessionId.length,
})

async function readVerifiedSession(request: Request) {
	const header = request.headers.get('Cookie')
	if (!header) return null
	const verified = verifiedCookieHeaders.get(header)
	if (verified !== undefined) return verified
	const value = await sessionCookie().parse(header)
	if (typeof value !== 'string' || value.length === 0) return null
	const session = { token: value, sessionId: hashToken(value) }
	verifiedCookieHeaders.set(header, session)
	return session
}

export async function readSessionToken(request: Request): Promise<string | null> {
	return (await readVerifiedSession(request))?.token ?? null
}

export async function createSession(db: Kysely<Database>, userId: string, meta: { userAgent?: string | null; ip?: string | null } = {}) {
	const token = randomBytes(32).toString('base64url')
	await db
		.insertInto('sessions')
		.values({
			id: hashToken(token),
			user_id: userId,
			expires_at: new Date(Date.now() + SESSION_ABSOLUTE_MS),
			user_agent: meta.userAgent?.slice(0, 500) ?? null,
			ip: meta.ip ?? null,
		})
		.execute()
	return { sessionId: hashToken(token), setCookie: await sessionCookie().serialize(token) }
}

export async function clearSessionCookie() {
	return sessionCookie().serialize('', { maxAge: 0 })
}

export async function getSessionUser(request: Request, db: Kysely<Database> = getDb()): Promise<SessionUser | null> {
	const session = await readVerifiedSession(request)
	if (!session) return null
	const { sessionId } = session
	const now = Date.now()
	const row = await db
		.selectFrom('sessions')
		.innerJoin('users', 'users.id', 'sessions.user_id')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select([
			'sessions.id as sessionId',
			'sessions.expires_at',
			'sessions.last_seen_at',
			'users.id',
			'users.email',
			'users.email_confirmed_at',
			'profiles.name',
			'profiles.role',
			'profiles.time_zone as timeZone',
			'profiles.id as profileId',
		])
		.where('sessions.id', '=', sessionId)
		.executeTakeFirst()
	if (!row?.profileId) return null
	if (row.expires_at.getTime() <= now || row.last_seen_at.getTime() + SESSION_IDLE_MS <= now) {
		await db.deleteFrom('sessions').where('id', '=', sessionId).execute()
		return null
	}
	if (row.last_seen_at.getTime() + TOUCH_INTERVAL_MS <= now) {
		await db.updateTable('sessions').set({ last_seen_at: new Date() }).where('id', '=', sessionId).execute()
	}
	const role: Role = row.role ?? 'student'
	return {
		id: row.id,
		email: row.email,
		name: row.name ?? '',
		storedRole: row.role ?? null,
		role,
		isAdmin: role === 'admin',
		emailConfirmed: row.email_confirmed_at !== null,
		sessionId: row.sessionId,
		timeZone: row.timeZone ?? null,
	}
}
