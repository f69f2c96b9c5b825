import { type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'

/** A sign-in page's form: the schema's constraints on the inputs, checked in the browser too, again at each keystroke once it was sent. */
export function useAuthForm<Schema extends z.ZodObject>(schema: Schema, lastResult: SubmissionResult<string[]> | null | undefined) {
	return useForm({
		lastResult,
		constraint: getZodConstraint(schema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldRevalidate: 'onInput',
	})
}
