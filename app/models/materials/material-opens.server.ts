import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { type MaterialReader, READING_STATUSES } from './materials.ts'

/**
 * Records that a student opened a material or recording (docs/decisions/051), in the request that
 * serves it: the first time only (the key and ON CONFLICT, however many opens arrive at once), and
 * only for a student enrolled in its course — the insert selects the enrolment, so nothing else
 * writes a row. An admin opens files without a record.
 */
export async function recordFirstOpen(db: Kysely<Database>, reader: MaterialReader, itemId: number) {
	if (reader.isAdmin) return
	await db
		.insertInto('material_opens')
		.columns(['user_id', 'material_item_id'])
		.expression((eb) =>
			eb
				.selectFrom('material_items as item')
				.innerJoin('course_materials as week', 'week.id', 'item.material_id')
				.innerJoin('enrollments', 'enrollments.course_id', 'week.course_id')
				.select(['enrollments.user_id', 'item.id'])
				.where('item.id', '=', itemId)
				.where('enrollments.user_id', '=', reader.id)
				.where('enrollments.status', 'in', READING_STATUSES),
		)
		.onConflict((conflict) => conflict.columns(['user_id', 'material_item_id']).doNothing())
		.execute()
}
