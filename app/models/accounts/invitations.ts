import { z } from 'zod'
import { EmailSchema, NameSchema } from '#app/utils/user-validation.ts'

/** The roles an admin can invite someone as; admins are made only from ADMIN_EMAILS (docs/decisions/013). */
export const INVITE_ROLES = ['student', 'instructor'] as const
export type InviteRole = (typeof INVITE_ROLES)[number]

/** How long an invitation link works (docs/decisions/055). */
export const INVITE_LINK_DAYS = 7

export const InviteSchema = z.object({
	name: NameSchema,
	email: EmailSchema,
	role: z.enum(INVITE_ROLES, { error: 'Choose a role' }),
	// Checkboxes: none ticked sends nothing. A student's ticks are ignored (the form says so).
	courseIds: z.array(z.coerce.number<string>().int().positive().max(2_147_483_647)).max(500).default([]),
})

export type InviteInput = z.infer<typeof InviteSchema>

/** A student teaches nothing: their course choices are dropped. */
export function staffCourseIds(input: Pick<InviteInput, 'role' | 'courseIds'>) {
	return input.role === 'instructor' ? [...new Set(input.courseIds)] : []
}
