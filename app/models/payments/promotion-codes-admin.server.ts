/** The admin's side of promotion codes (docs/decisions/037): the list, creating and deactivating a code. */

import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { overLimitExpression, usesExpression } from './promotion-codes.server.ts'
import type { promotionCodeValues } from './promotion-codes.ts'

export type PromotionCodeListItem = {
	id: number
	code: string
	percentOff: number | null
	amountOffCents: number | null
	courseTitle: string | null
	expiresAt: string | null
	maxUses: number | null
	/** Redeemed plus reserved: what counts against maxUses. */
	uses: number
	/** Held by checkouts still open: given back if they are not paid. */
	reserved: number
	/** Paid after their reservation lapsed, with the code used up meanwhile: past maxUses (docs/decisions/040). */
	overLimit: number
	deactivatedAt: string | null
	createdAt: string
}

export async function listPromotionCodes(db: Kysely<Database>): Promise<PromotionCodeListItem[]> {
	const rows = await db
		.selectFrom('promotion_codes')
		.leftJoin('courses', 'courses.id', 'promotion_codes.course_id')
		.select([
			'promotion_codes.id',
			'promotion_codes.code',
			'promotion_codes.percent_off',
			'promotion_codes.amount_off_cents',
			'promotion_codes.expires_at',
			'promotion_codes.max_uses',
			'promotion_codes.deactivated_at',
			'promotion_codes.created_at',
			'courses.title as courseTitle',
			(eb) => usesExpression(eb).as('uses'),
			(eb) => usesExpression(eb).where('promotion_code_redemptions.status', '=', 'reserved').as('reserved'),
			(eb) => overLimitExpression(eb).as('overLimit'),
		])
		.orderBy('promotion_codes.created_at', 'desc')
		.orderBy('promotion_codes.id', 'desc')
		.execute()
	return rows.map((row) => ({
		id: row.id,
		code: row.code,
		percentOff: row.percent_off,
		amountOffCents: row.amount_off_cents,
		courseTitle: row.courseTitle,
		expiresAt: row.expires_at?.toISOString() ?? null,
		maxUses: row.max_uses,
		uses: Number(row.uses ?? 0),
		reserved: Number(row.reserved ?? 0),
		overLimit: Number(row.overLimit ?? 0),
		deactivatedAt: row.deactivated_at?.toISOString() ?? null,
		createdAt: row.created_at.toISOString(),
	}))
}

export async function getPromotionCode(db: Kysely<Database>, id: number) {
	return db.selectFrom('promotion_codes').select(['id', 'code', 'deactivated_at']).where('id', '=', id).executeTakeFirst()
}

function isUniqueViolation(error: unknown) {
	return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505'
}

/** Creates a code; 'code-taken' when another code (active or not) has the same letters. */
export async function createPromotionCode(
	db: Kysely<Database>,
	actorId: string,
	values: ReturnType<typeof promotionCodeValues>,
): Promise<{ id: number } | 'code-taken' | 'course-not-found'> {
	try {
		return await transaction(db, async (trx) => {
			if (values.courseId !== null) {
				const course = await trx.selectFrom('courses').select('id').where('id', '=', values.courseId).executeTakeFirst()
				if (!course) return 'course-not-found' as const
			}
			const row = await trx
				.insertInto('promotion_codes')
				.values({
					code: values.code,
					percent_off: values.percentOff,
					amount_off_cents: values.amountOffCents,
					course_id: values.courseId,
					expires_at: values.expiresAt,
					max_uses: values.maxUses,
					created_by: actorId,
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			await recordAudit(trx, {
				actorId,
				action: 'promotion_code.create',
				entity: 'promotion_code',
				entityId: row.id,
				details: { ...values, expiresAt: values.expiresAt?.toISOString() ?? null },
			})
			return row
		})
	} catch (error) {
		if (isUniqueViolation(error)) return 'code-taken'
		throw error
	}
}

/** Stops a code from being used again; uses already made stay. False when there is no such active code. */
export async function deactivatePromotionCode(db: Kysely<Database>, actorId: string, id: number) {
	return transaction(db, async (trx) => {
		const row = await trx
			.updateTable('promotion_codes')
			.set({ deactivated_at: new Date() })
			.where('id', '=', id)
			.where('deactivated_at', 'is', null)
			.returning(['id', 'code'])
			.executeTakeFirst()
		if (!row) return false
		await recordAudit(trx, {
			actorId,
			action: 'promotion_code.deactivate',
			entity: 'promotion_code',
			entityId: row.id,
			details: { code: row.code },
		})
		return true
	})
}
