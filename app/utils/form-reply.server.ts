import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { conformCanParse } from './form-data.server.ts'
import type { ToastInput } from './toast.server.ts'

/** A failed form's answer: the text fields come back as they were sent, with the message. */
export function errorReply(
	fields: FormData,
	message: string,
	options: { field?: string; hideFields?: string[] } = {},
): SubmissionResult<string[]> {
	return parseWithZod(conformCanParse(fields) ? fields : withoutConformFields(fields), { schema: z.looseObject({}) }).reply({
		...(options.field ? { fieldErrors: { [options.field]: [message] } } : { formErrors: [message] }),
		hideFields: options.hideFields,
	})
}

/** A form refused for Conform's reserved fields (`__intent__`, `__state__`) comes back without them: nobody typed them. */
function withoutConformFields(fields: FormData) {
	const typed = new FormData()
	for (const [name, value] of fields) if (name !== '__intent__' && name !== '__state__') typed.append(name, value)
	return typed
}

/** How a form that failed is answered: status, the form's errors and (usually) a toast. */
export type FormFailure = { ok: false; status: number; result: SubmissionResult<string[]>; toast?: ToastInput }
