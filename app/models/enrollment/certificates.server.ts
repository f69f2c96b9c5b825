import { createHash, type KeyObject, randomBytes } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { CompactSign } from 'jose'
import type { Kysely, Transaction } from 'kysely'
import { attendedLiveMinutes } from '#app/models/sessions/attendance.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import { type Env, getEnv } from '#app/utils/env.server.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { loadSigningKey, publicJwk } from '#app/utils/signing-key.server.ts'
import type { Database } from '#db/types.ts'
import { certificatePath } from './certificates.ts'

/** The job that e-mails a new certificate to its student. */
export const SEND_CERTIFICATE_TASK = 'send-certificate'

/** Bits in one revocation status list: the minimum the Bitstring Status List recommends (16 KB). */
export const STATUS_LIST_SIZE = 131_072

const VC_CONTEXT = 'https://www.w3.org/ns/credentials/v2'
const OB3_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'
/** The media type of a credential secured as a compact JWS (VC-JOSE-COSE). */
export const VC_JWT_MEDIA_TYPE = 'application/vc+jwt'

/** The live minutes the enrolment's student attended (docs/decisions/048); null for a course without live sessions. */
export async function liveMinutesAttended(db: Kysely<Database>, enrollmentId: number): Promise<number | null> {
	const enrollment = await db
		.selectFrom('enrollments')
		.select(['user_id', 'course_id'])
		.where('id', '=', enrollmentId)
		.executeTakeFirstOrThrow()
	return attendedLiveMinutes(db, { userId: enrollment.user_id, courseId: enrollment.course_id })
}

let loadedKey: { env: Env; key: KeyObject } | undefined

/** The school's private key; it signs here and never leaves the server. */
function schoolKey() {
	const env = getEnv()
	if (loadedKey?.env !== env) loadedKey = { env, key: loadSigningKey(env) }
	return loadedKey.key
}

/**
 * The site's did:web (the DID method's rule: the host, a port percent-encoded, and any path
 * after it as colon-separated segments), resolved at `/.well-known/did.json` or `<path>/did.json`.
 */
export function siteDid(appUrl = getEnv().APP_URL) {
	const url = new URL(appUrl)
	const path = url.pathname.split('/').filter(Boolean).map(encodeURIComponent)
	return ['did:web', encodeURIComponent(url.host), ...path].join(':')
}

/** The key's id in the DID document: its JWK thumbprint (RFC 7638), so a new key gets a new id. */
function keyId(jwk: { kty: string; crv: string; x: string }) {
	const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })
	return createHash('sha256').update(canonical).digest('base64url')
}

/** The DID document the site publishes for its did:web: the public key that verifies its credentials. */
export function didDocument() {
	const did = siteDid()
	const jwk = publicJwk(schoolKey())
	const methodId = `${did}#${keyId(jwk)}`
	return {
		'@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
		id: did,
		verificationMethod: [{ id: methodId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: jwk }],
		assertionMethod: [methodId],
	}
}

/** Signs a credential as VC-JOSE: a compact JWS whose payload is the credential itself. */
async function signCredential(credential: Record<string, unknown>) {
	const key = schoolKey()
	const kid = `${siteDid()}#${keyId(publicJwk(key))}`
	return new CompactSign(new TextEncoder().encode(JSON.stringify(credential)))
		.setProtectedHeader({ alg: 'EdDSA', typ: 'vc+jwt', cty: 'vc', kid })
		.sign(key)
}

function statusListUrl(list: number) {
	return `${getEnv().APP_URL}/certificates/status/${list}`
}

type CredentialInput = {
	id: string
	recipientName: string
	courseId: number
	courseTitle: string
	startDate: string | null
	endDate: string | null
	issuedAt: Date
	statusIndex: number
}

/** The Open Badges 3.0 credential of a certificate (docs/decisions/049). */
export function openBadgeCredential(input: CredentialInput) {
	const site = getEnv().APP_URL
	const list = Math.floor(input.statusIndex / STATUS_LIST_SIZE)
	const listUrl = statusListUrl(list)
	const bit = input.statusIndex % STATUS_LIST_SIZE
	return {
		'@context': [VC_CONTEXT, OB3_CONTEXT],
		id: `${site}${certificatePath(input.id)}`,
		type: ['VerifiableCredential', 'OpenBadgeCredential'],
		name: `${input.courseTitle}: certificate of completion`,
		issuer: { id: siteDid(), type: ['Profile'], name: SITE_NAME, url: site },
		validFrom: input.issuedAt.toISOString(),
		credentialSubject: {
			type: ['AchievementSubject'],
			identifier: [{ type: 'IdentityObject', identityHash: input.recipientName, identityType: 'name', hashed: false }],
			...(input.startDate ? { activityStartDate: `${input.startDate}T00:00:00Z` } : {}),
			...(input.endDate ? { activityEndDate: `${input.endDate}T00:00:00Z` } : {}),
			achievement: {
				id: `${site}/courses/${input.courseId}`,
				type: ['Achievement'],
				achievementType: 'Certificate',
				name: input.courseTitle,
				description: `Completion of the course ${input.courseTitle} at ${SITE_NAME}.`,
				criteria: { narrative: `Completed ${input.courseTitle} as ${SITE_NAME} requires.` },
			},
		},
		credentialStatus: {
			id: `${listUrl}#${bit}`,
			type: 'BitstringStatusListEntry',
			statusPurpose: 'revocation',
			statusListIndex: String(bit),
			statusListCredential: listUrl,
		},
	}
}

/** The enrolment's certificate that is not revoked, if it has one. */
export async function currentCertificate(db: Kysely<Database>, enrollmentId: number) {
	return db
		.selectFrom('certificates')
		.select('id')
		.where('enrollment_id', '=', enrollmentId)
		.where('revoked_at', 'is', null)
		.executeTakeFirst()
}

/**
 * Issues the enrolment's certificate, in the caller's transaction, and asks for the mail that
 * sends it: once, whoever asks and however often — an enrolment that has a current certificate
 * keeps it (answered with `created: false`). The enrolment's row lock makes parallel callers
 * wait for each other; the unique index of current certificates backs it. Null when the
 * enrolment does not exist or is not completed. `recipientName` corrects the name (a re-issue).
 */
export async function issueCertificate(
	trx: Transaction<Database>,
	enrollmentId: number,
	{ recipientName, now = new Date() }: { recipientName?: string; now?: Date } = {},
) {
	const enrollment = await trx
		.selectFrom('enrollments')
		.select(['id', 'status', 'user_id', 'course_id'])
		.where('id', '=', enrollmentId)
		.forUpdate()
		.executeTakeFirst()
	if (enrollment?.status !== 'completed') return null
	const current = await currentCertificate(trx, enrollmentId)
	if (current) return { id: current.id, created: false }
	const person = await trx
		.selectFrom('enrollments')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.innerJoin('courses', 'courses.id', 'enrollments.course_id')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.email', 'profiles.name', 'courses.title', 'courses.start_date', 'courses.end_date'])
		.where('enrollments.id', '=', enrollmentId)
		.executeTakeFirstOrThrow()
	const { nextIndex } = await trx
		.selectNoFrom((eb) =>
			eb.fn<number>('nextval', [eb.fn('pg_get_serial_sequence', [eb.val('certificates'), eb.val('status_index')])]).as('nextIndex'),
		)
		.executeTakeFirstOrThrow()
	const id = randomBytes(16).toString('base64url')
	const name = recipientName ?? (person.name?.trim() || person.email)
	const statusIndex = Number(nextIndex)
	const credential = await signCredential(
		openBadgeCredential({
			id,
			recipientName: name,
			courseId: enrollment.course_id,
			courseTitle: person.title,
			startDate: person.start_date,
			endDate: person.end_date,
			issuedAt: now,
			statusIndex,
		}),
	)
	await trx
		.insertInto('certificates')
		.values({
			id,
			enrollment_id: enrollmentId,
			user_id: enrollment.user_id,
			course_id: enrollment.course_id,
			recipient_name: name,
			course_title: person.title,
			course_start_date: person.start_date,
			course_end_date: person.end_date,
			live_minutes: await liveMinutesAttended(trx, enrollmentId),
			status_index: statusIndex,
			credential,
			issued_at: now,
		})
		.execute()
	await addJob(trx, SEND_CERTIFICATE_TASK, { certificateId: id }, { maxAttempts: 5 })
	return { id, created: true }
}

/** What a certificate states, for its page, its PDF and its mail. */
const certificateColumns = [
	'certificates.id',
	'certificates.user_id',
	'certificates.recipient_name',
	'certificates.course_title',
	'certificates.course_start_date',
	'certificates.course_end_date',
	'certificates.live_minutes',
	'certificates.is_public',
	'certificates.issued_at',
	'certificates.revoked_at',
	'certificates.revoked_reason',
] as const

function toView(row: {
	id: string
	user_id: string
	recipient_name: string
	course_title: string
	course_start_date: string | null
	course_end_date: string | null
	live_minutes: number | null
	is_public: boolean
	issued_at: Date
	revoked_at: Date | null
	revoked_reason: string | null
}) {
	return {
		id: row.id,
		userId: row.user_id,
		recipientName: row.recipient_name,
		courseTitle: row.course_title,
		startDate: row.course_start_date,
		endDate: row.course_end_date,
		liveMinutes: row.live_minutes,
		isPublic: row.is_public,
		issuedAt: row.issued_at.toISOString(),
		revokedAt: row.revoked_at?.toISOString() ?? null,
		revokedReason: row.revoked_reason,
		url: `${getEnv().APP_URL}${certificatePath(row.id)}`,
	}
}

export type CertificateView = ReturnType<typeof toView>

/** A certificate by its id, revoked or not; null for an id nobody was issued. */
export async function getCertificate(db: Kysely<Database>, id: string) {
	const row = await db.selectFrom('certificates').select(certificateColumns).where('id', '=', id).executeTakeFirst()
	return row ? toView(row) : null
}

/** The student's own certificate; null for anyone else's, as for one that does not exist. */
export async function getOwnCertificate(db: Kysely<Database>, userId: string, id: string) {
	const certificate = await getCertificate(db, id)
	return certificate?.userId === userId ? certificate : null
}

/** The student's certificates, current ones first, newest first. */
export async function listOwnCertificates(db: Kysely<Database>, userId: string) {
	const rows = await db
		.selectFrom('certificates')
		.select(certificateColumns)
		.where('user_id', '=', userId)
		.orderBy((eb) => eb('revoked_at', 'is', null), 'desc')
		.orderBy('issued_at', 'desc')
		.execute()
	return rows.map(toView)
}

/** The signed credential of a certificate, as a W3C enveloped credential (JSON holding the JWS). */
export async function getCredential(db: Kysely<Database>, id: string) {
	const row = await db.selectFrom('certificates').select('credential').where('id', '=', id).executeTakeFirst()
	if (!row) return null
	return {
		'@context': [VC_CONTEXT],
		id: `data:${VC_JWT_MEDIA_TYPE},${row.credential}`,
		type: 'EnvelopedVerifiableCredential',
	}
}

/** The student lets search engines index their certificate's page, or stops them. False when not theirs. */
export async function setCertificateVisibility(db: Kysely<Database>, userId: string, id: string, isPublic: boolean) {
	const updated = await db
		.updateTable('certificates')
		.set({ is_public: isPublic })
		.where('id', '=', id)
		.where('user_id', '=', userId)
		.executeTakeFirst()
	return updated.numUpdatedRows > 0n
}

/**
 * A revocation list as a signed BitstringStatusListCredential: bit n of the GZIP-compressed list
 * (left to right) is set when the certificate with that status index is revoked. Null past the
 * last list in use.
 */
export async function statusListCredential(db: Kysely<Database>, list: number, now = new Date()) {
	const first = list * STATUS_LIST_SIZE
	const revoked = await db
		.selectFrom('certificates')
		.select('status_index')
		.where('status_index', '>=', first)
		.where('status_index', '<', first + STATUS_LIST_SIZE)
		.where('revoked_at', 'is not', null)
		.execute()
	const { max } = await db
		.selectFrom('certificates')
		.select((eb) => eb.fn.max('status_index').as('max'))
		.executeTakeFirstOrThrow()
	if (list > 0 && (max === null || Number(max) < first)) return null
	const bits = new Uint8Array(STATUS_LIST_SIZE / 8)
	for (const { status_index } of revoked) {
		const bit = status_index - first
		bits[bit >> 3] = (bits[bit >> 3] ?? 0) | (0x80 >> (bit & 7))
	}
	const url = statusListUrl(list)
	return signCredential({
		'@context': [VC_CONTEXT],
		id: url,
		type: ['VerifiableCredential', 'BitstringStatusListCredential'],
		issuer: siteDid(),
		validFrom: now.toISOString(),
		credentialSubject: {
			id: `${url}#list`,
			type: 'BitstringStatusList',
			statusPurpose: 'revocation',
			encodedList: `u${Buffer.from(gzipSync(bits)).toString('base64url')}`,
		},
	})
}
