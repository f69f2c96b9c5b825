import { z } from 'zod'
import { currentPasswordSchema } from '#app/utils/user-validation.ts'

/** The Delete my account form (docs/decisions/067): the password again, and the consequences acknowledged. */
export const DeleteAccountSchema = z.object({
	password: currentPasswordSchema('Enter your password to delete your account'),
	confirm: z.literal('on', { error: 'Tick the box to confirm: your account cannot be restored' }),
})

/** Why a deletion was refused, in words for the person asking. */
export const DELETION_REFUSALS = {
	'wrong-password': 'The password is incorrect.',
	'last-admin': 'You are the only administrator. Make another account an administrator before deleting yours.',
	enrolled:
		'You are enrolled in a course, or paying for one in instalments or at checkout. Contact the school to withdraw first; your account can be deleted after that.',
} as const

export type DeletionRefusal = keyof typeof DELETION_REFUSALS
