import type { Kysely } from 'kysely'
import { storedFileName } from '#app/models/materials/materials.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import { parseMaterialKey } from '#app/services/storage/keys.ts'
import type { StoredObject } from '#app/services/storage/storage.ts'
import type { Database, MaterialCategory } from '#db/types.ts'
import { unsharedKeys, withPreviewKeys } from './stored-files.server.ts'

/**
 * Files younger than this are never offered: an upload stores its files before the
 * transaction that references them, and a slow one may take a while.
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000
const MATERIALS_PREFIX = 'courses/'
const LOOKUP_BATCH = 500

export type OrphanFile = { key: string; name: string; category: MaterialCategory; sizeBytes: number; lastModified: Date }

/** The unreferenced files of one course week, as their keys name it. */
export type OrphanGroup = {
	/** `{courseId}-{weekId}`: what the cleanup form sends back. */
	id: string
	courseId: number
	weekId: number
	/** Known only while the week row still exists. */
	weekNumber: number | null
	topic: string | null
	files: OrphanFile[]
	/** The oldest file's time. */
	createdAt: Date
}

type ScanOptions = { now?: Date; graceMs?: number }

/**
 * Lists every stored object under `prefix` (however many pages the store needs) that no
 * material item references (of any course: a course run again shares its files, unsharedKeys) and that is older than the grace period.
 */
async function* unreferencedObjects(
	db: Kysely<Database>,
	storage: FileStorage,
	prefix: string,
	{ now = new Date(), graceMs = ORPHAN_GRACE_MS }: ScanOptions,
) {
	const cutoff = now.getTime() - graceMs
	let batch: StoredObject[] = []
	async function* flush() {
		const unshared = new Set(
			await unsharedKeys(
				db,
				batch.map((object) => object.key),
			),
		)
		for (const object of batch) if (unshared.has(object.key)) yield object
		batch = []
	}
	for await (const object of storage.list(prefix)) {
		if (object.lastModified.getTime() > cutoff || !parseMaterialKey(object.key)) continue
		batch.push(object)
		if (batch.length >= LOOKUP_BATCH) yield* flush()
	}
	if (batch.length > 0) yield* flush()
}

/**
 * The Orphaned Materials screen (docs/decisions/016): stored material files that no row
 * references (a failed storage delete leaves them), grouped by the course and week in their
 * key, with the week's number and topic where the week still exists.
 */
export async function findOrphanedMaterials(db: Kysely<Database>, storage: FileStorage, options: ScanOptions = {}): Promise<OrphanGroup[]> {
	const groups = new Map<string, OrphanGroup>()
	for await (const object of unreferencedObjects(db, storage, MATERIALS_PREFIX, options)) {
		const { courseId, weekId, category } = parseMaterialKey(object.key)!
		const id = `${courseId}-${weekId}`
		let group = groups.get(id)
		if (!group) {
			group = { id, courseId, weekId, weekNumber: null, topic: null, files: [], createdAt: object.lastModified }
			groups.set(id, group)
		}
		group.files.push({
			key: object.key,
			name: storedFileName(object.key),
			category,
			sizeBytes: object.size,
			lastModified: object.lastModified,
		})
		if (object.lastModified < group.createdAt) group.createdAt = object.lastModified
	}
	const list = [...groups.values()].sort((a, b) => a.courseId - b.courseId || a.weekId - b.weekId)
	const weekIds = list.map((group) => group.weekId)
	if (weekIds.length > 0) {
		const weeks = await db
			.selectFrom('course_materials')
			.select(['id', 'course_id', 'week_number', 'topic'])
			.where('id', 'in', weekIds)
			.execute()
		const byId = new Map(weeks.map((week) => [week.id, week]))
		for (const group of list) {
			const week = byId.get(group.weekId)
			if (week?.course_id !== group.courseId) continue
			group.weekNumber = week.week_number
			group.topic = week.topic
		}
	}
	for (const group of list) group.files.sort((a, b) => a.name.localeCompare(b.name))
	return list
}

const GROUP_ID = /^(\d{1,10})-(\d{1,10})$/

function parseGroupId(value: string) {
	const match = GROUP_ID.exec(value)
	return match ? { courseId: Number(match[1]), weekId: Number(match[2]) } : null
}

/**
 * Deletes the selected groups' files. Each file is checked again now: only objects that are
 * still unreferenced (and past the grace period) go, so a file that a row has started to use
 * since the list was shown is kept.
 */
export async function cleanUpOrphans(
	db: Kysely<Database>,
	storage: FileStorage,
	{ adminId, groupIds, ...options }: { adminId: string; groupIds: string[] } & ScanOptions,
) {
	const keys: string[] = []
	const cleaned: string[] = []
	for (const groupId of new Set(groupIds)) {
		const group = parseGroupId(groupId)
		if (!group) continue
		const before = keys.length
		const prefix = `courses/${group.courseId}/weeks/${group.weekId}/`
		for await (const object of unreferencedObjects(db, storage, prefix, options)) keys.push(object.key)
		if (keys.length > before) cleaned.push(groupId)
	}
	// Nothing matched (a stale page, a forged id): nothing changed, so nothing to record.
	if (keys.length === 0) return { groups: 0, files: 0 }
	await storage.deleteMany(withPreviewKeys(keys))
	await recordAudit(db, {
		actorId: adminId,
		action: 'orphans.cleanup',
		entity: 'stored_file',
		details: { groups: cleaned, filesDeleted: keys.length, keys: keys.slice(0, 200) },
	})
	return { groups: cleaned.length, files: keys.length }
}
