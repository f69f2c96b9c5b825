import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import type { ToastInput } from './toast.server.ts'

/** A failed form's answer: the text fields come back as they were sent, with the message. */
export function errorReply(
	fields: FormData,
	message: string,
	options: { field?: string; hideFields?: string[] } = {},
): SubmissionResult<string[]> {
	return parseWithZod(fields, { schema: z.looseObject({}) }).reply({
		...(options.field ? { fieldErrors: { [options.field]: [message] } } : { formErrors: [message] }),
		hideFields: options.hideFields,
	})
}

/** How a form that failed is answered: status, the form's errors and (usually) a toast. */
export type FormFailure = { ok: false; status: number; result: SubmissionResult<string[]>; toast?: ToastInput }
