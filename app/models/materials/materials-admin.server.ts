import type { Kysely } from 'kysely'
import { meetingLinkFor } from '#app/models/sessions/live-sessions.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import type { Database } from '#db/types.ts'
import { requestDocumentPreviews } from './document-previews.server.ts'
import { selectWeeksWithItems } from './materials.server.ts'
import { materialKind, safeExternalUrl, storedFileName } from './materials.ts'
import type { AdminWeek, CourseOption, DeleteRecord, WeekEditValues } from './materials-admin.ts'
import { type CheckedType, removeStoredFiles, UploadRefusal } from './uploads.server.ts'

/** Every course, for the course pickers, by title. */
export async function listCourseOptions(db: Kysely<Database>): Promise<CourseOption[]> {
	return db.selectFrom('courses').select(['id', 'title']).orderBy('title').orderBy('id').execute()
}

export async function getCourseOption(db: Kysely<Database>, courseId: number): Promise<CourseOption | null> {
	return (await db.selectFrom('courses').select(['id', 'title']).where('id', '=', courseId).executeTakeFirst()) ?? null
}

/** A course's weeks (by week number) with every item, for the management table: one query. */
export async function listAdminWeeks(db: Kysely<Database>, courseId: number): Promise<AdminWeek[]> {
	const rows = await selectWeeksWithItems(db)
		.where('week.course_id', '=', courseId)
		.orderBy('week.week_number')
		.orderBy('week.id')
		.orderBy('item.category')
		.orderBy('item.title')
		.orderBy('item.id')
		.execute()
	const weeks: AdminWeek[] = []
	for (const row of rows) {
		let week = weeks.at(-1)
		if (week?.id !== row.weekId) {
			week = {
				id: row.weekId,
				weekNumber: row.weekNumber,
				topic: row.topic,
				zoomLink: safeExternalUrl(row.zoomLink),
				meetingLink: meetingLinkFor({ weekLink: row.zoomLink, courseLink: row.courseMeetingLink }),
				items: [],
			}
			weeks.push(week)
		}
		if (row.itemId === null || row.title === null || row.type === null || row.category === null) continue
		week.items.push({
			id: row.itemId,
			title: row.title,
			category: row.category,
			type: row.type,
			kind: materialKind(row),
			fileName: row.storageKey ? storedFileName(row.storageKey) : null,
			link: row.storageKey ? null : safeExternalUrl(row.fileUrl),
			sizeBytes: row.sizeBytes,
		})
	}
	return weeks
}

export function countMaterials(weeks: AdminWeek[]) {
	const items = weeks.flatMap((week) => week.items)
	const recordings = items.filter((item) => item.category === 'recording').length
	return { total: items.length, materials: items.length - recordings, recordings }
}

const DELETE_ACTIONS = ['material.delete', 'week.delete']

/**
 * Deletes one item of a course. The statement is compiled first so that the audit row
 * (written in the same transaction) holds exactly the SQL and parameters that ran, and
 * what they returned. The stored file goes after commit.
 */
export async function deleteMaterialItem(
	db: Kysely<Database>,
	storage: FileStorage,
	{ adminId, courseId, itemId }: { adminId: string; courseId: number; itemId: number },
) {
	const deleted = await db.transaction().execute(async (trx) => {
		const query = trx
			.deleteFrom('material_items')
			.where('id', '=', itemId)
			.where('material_id', 'in', trx.selectFrom('course_materials').select('id').where('course_id', '=', courseId))
			.returning(['id', 'material_id', 'title', 'storage_key'])
		const compiled = query.compile()
		const rows = await query.execute()
		const row = rows[0]
		if (!row) return null
		const record: DeleteRecord = {
			sql: compiled.sql,
			parameters: [...compiled.parameters],
			result: rows.map(({ id, material_id }) => ({ id, material_id })),
		}
		await recordAudit(trx, {
			actorId: adminId,
			action: 'material.delete',
			entity: 'material_item',
			entityId: itemId,
			details: { courseId, weekId: row.material_id, title: row.title, ...record },
		})
		return row
	})
	if (!deleted) return null
	if (deleted.storage_key) await removeStoredFiles(db, storage, [deleted.storage_key])
	return { title: deleted.title }
}

/**
 * Deletes a week of a course; its items go with it (the foreign key cascades), and their
 * stored files after commit. A file the store fails to delete is logged and left for the
 * orphaned-materials cleanup.
 */
export async function deleteWeek(
	db: Kysely<Database>,
	storage: FileStorage,
	{ adminId, courseId, weekId }: { adminId: string; courseId: number; weekId: number },
) {
	const deleted = await db.transaction().execute(async (trx) => {
		const items = await trx
			.selectFrom('material_items')
			.select(['id', 'storage_key'])
			.where('material_id', '=', weekId)
			.forUpdate()
			.execute()
		const query = trx
			.deleteFrom('course_materials')
			.where('id', '=', weekId)
			.where('course_id', '=', courseId)
			.returning(['id', 'week_number', 'topic'])
		const compiled = query.compile()
		const rows = await query.execute()
		const row = rows[0]
		if (!row) return null
		const record: DeleteRecord = { sql: compiled.sql, parameters: [...compiled.parameters], result: rows }
		await recordAudit(trx, {
			actorId: adminId,
			action: 'week.delete',
			entity: 'course_material',
			entityId: weekId,
			details: { courseId, itemsDeleted: items.length, ...record },
		})
		return { week: row, keys: items.flatMap((item) => (item.storage_key ? [item.storage_key] : [])) }
	})
	if (!deleted) return null
	await removeStoredFiles(db, storage, deleted.keys)
	return { weekNumber: deleted.week.week_number, topic: deleted.week.topic }
}

/** The last material or week delete this admin ran, read back from its audit row. */
export async function lastDeleteRecord(db: Kysely<Database>, adminId: string): Promise<DeleteRecord | null> {
	const row = await db
		.selectFrom('audit_log')
		.select('details')
		.where('actor_id', '=', adminId)
		.where('action', 'in', DELETE_ACTIONS)
		.orderBy('id', 'desc')
		.limit(1)
		.executeTakeFirst()
	const details = row?.details
	if (!details || typeof details !== 'object' || !('sql' in details) || typeof details.sql !== 'string') return null
	return {
		sql: details.sql,
		parameters: 'parameters' in details && Array.isArray(details.parameters) ? details.parameters : [],
		result: 'result' in details && Array.isArray(details.result) ? details.result : [],
	}
}

/** One week of a course with its items, for the edit dialog; null when the course has no such week. */
export async function getWeekForEdit(db: Kysely<Database>, courseId: number, weekId: number): Promise<AdminWeek | null> {
	const weeks = await listAdminWeeks(db, courseId)
	return weeks.find((week) => week.id === weekId) ?? null
}

/** A replacement or new file of the Edit Week form, stored before the save. */
export type StoredReplacement = CheckedType & { key: string; size: number; fileName: string }

/**
 * Saves the Edit Week & Materials form once its files are stored (`stored`, by file field):
 * ONE transaction updates the week, updates, deletes and adds the items and writes the audit
 * row. Returns the keys of the files that are no longer referenced (replaced, deleted, or sent
 * for rows that were not kept), for the caller to remove after commit. Throws UploadRefusal
 * when the week is gone, its new number is taken, or an item was deleted meanwhile.
 */
export async function saveWeekEdit(
	db: Kysely<Database>,
	{
		adminId,
		courseId,
		weekId,
		value,
		stored,
	}: { adminId: string; courseId: number; weekId: number; value: WeekEditValues; stored: Map<string, StoredReplacement> },
): Promise<string[]> {
	const replacedKeys = await db.transaction().execute(async (trx) => {
		const current = await trx
			.selectFrom('course_materials')
			.select('id')
			.where('id', '=', weekId)
			.where('course_id', '=', courseId)
			.forUpdate()
			.executeTakeFirst()
		if (!current) throw new UploadRefusal('This week no longer exists.', 404)
		const clash = await trx
			.selectFrom('course_materials')
			.select('id')
			.where('course_id', '=', courseId)
			.where('week_number', '=', value.weekNumber)
			.where('id', '<>', weekId)
			.executeTakeFirst()
		if (clash) throw new UploadRefusal(`Week ${value.weekNumber} already exists for this course.`, 409, 'weekNumber')
		await trx
			.updateTable('course_materials')
			.set({ week_number: value.weekNumber, topic: value.topic, zoom_link: value.zoomLink ?? null, updated_at: new Date() })
			.where('id', '=', weekId)
			.execute()

		const items = await trx
			.selectFrom('material_items')
			.select(['id', 'title', 'storage_key'])
			.where('material_id', '=', weekId)
			.forUpdate()
			.execute()
		const byId = new Map(items.map((item) => [item.id, item]))
		const oldKeys: string[] = []
		const counts = { updated: 0, replaced: 0, deleted: 0, added: 0 }
		for (const [index, material] of value.materials.entries()) {
			const item = byId.get(material.id)
			if (!item) throw new UploadRefusal('A material of this week was deleted meanwhile. Please reload and try again.', 409)
			if (material.delete) {
				await trx.deleteFrom('material_items').where('id', '=', item.id).execute()
				if (item.storage_key) oldKeys.push(item.storage_key)
				counts.deleted += 1
				continue
			}
			const replacement = stored.get(`materials[${index}].file`)
			await trx
				.updateTable('material_items')
				.set({
					title: material.title!,
					category: material.category,
					updated_at: new Date(),
					...(replacement
						? {
								storage_key: replacement.key,
								file_url: null,
								mime_type: replacement.contentType,
								size_bytes: replacement.size,
								type: replacement.type,
							}
						: {}),
				})
				.where('id', '=', item.id)
				.execute()
			counts.updated += 1
			if (replacement) {
				counts.replaced += 1
				if (item.storage_key) oldKeys.push(item.storage_key)
			}
		}
		const additions = value.newMaterials.flatMap((material, index) => {
			const file = stored.get(`newMaterials[${index}].file`)
			if (!material.title || !file) return []
			return [
				{
					material_id: weekId,
					title: material.title,
					category: material.category,
					type: file.type,
					storage_key: file.key,
					mime_type: file.contentType,
					size_bytes: file.size,
				},
			]
		})
		if (additions.length > 0) await trx.insertInto('material_items').values(additions).execute()
		counts.added = additions.length
		await requestDocumentPreviews(trx, { weekIds: [weekId] })
		await recordAudit(trx, {
			actorId: adminId,
			action: 'week.update',
			entity: 'course_material',
			entityId: weekId,
			details: { courseId, weekNumber: value.weekNumber, topic: value.topic, ...counts },
		})
		return oldKeys
	})

	// Files sent for rows that ended up deleted or unused are not referenced by anything.
	const used = new Set<string>()
	for (const [index, material] of value.materials.entries()) {
		const file = stored.get(`materials[${index}].file`)
		if (file && !material.delete) used.add(file.key)
	}
	for (const [index, material] of value.newMaterials.entries()) {
		const file = stored.get(`newMaterials[${index}].file`)
		if (file && material.title) used.add(file.key)
	}
	const unused = [...stored.values()].filter((file) => !used.has(file.key)).map((file) => file.key)
	return [...replacedKeys, ...unused]
}
