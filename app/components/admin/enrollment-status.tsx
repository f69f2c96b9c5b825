import { useEffect, useId, useState } from 'react'
import { Form, useSubmit } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Select } from '#app/components/ui/input.tsx'
import { ENROLLMENT_STATUS_OPTIONS } from '#app/models/enrollment/enrollments.ts'
import type { EnrollmentStatus } from '#db/types.ts'

const statusTones: Record<EnrollmentStatus, BadgeTone> = {
	active: 'green',
	pending: 'yellow',
	inactive: 'gray',
	completed: 'blue',
}

export function EnrollmentStatusBadge({ status }: { status: EnrollmentStatus }) {
	return <Badge tone={statusTones[status]}>{status}</Badge>
}

/**
 * The inline status select: a small form of its own with an Update button; with
 * JavaScript it submits as soon as the value changes and the button goes away.
 * `loadedAt` changes with every load, so a refused change snaps back to the stored value.
 */
export function EnrollmentStatusForm({
	enrollmentId,
	status,
	label,
	action,
	loadedAt,
}: {
	enrollmentId: number
	status: EnrollmentStatus
	label: string
	action: string
	loadedAt: number
}) {
	const hydrated = useHydrated()
	const submit = useSubmit()
	const id = useId()
	const [value, setValue] = useState<string>(status)
	// biome-ignore lint/correctness/useExhaustiveDependencies: a reload that leaves the status as it was must still undo a choice the server refused
	useEffect(() => setValue(status), [status, loadedAt])
	return (
		<Form method="post" action={action} preventScrollReset className="flex items-center gap-2">
			<input type="hidden" name="intent" value="status" />
			<input type="hidden" name="enrollmentId" value={enrollmentId} />
			<label htmlFor={id} className="sr-only">
				{label}
			</label>
			<Select
				id={id}
				name="status"
				value={value}
				onChange={(event) => {
					setValue(event.currentTarget.value)
					void submit(event.currentTarget.form, { preventScrollReset: true })
				}}
				className="h-9 w-32 text-sm"
			>
				{ENROLLMENT_STATUS_OPTIONS.map((option) => (
					<option key={option} value={option}>
						{option}
					</option>
				))}
			</Select>
			{hydrated ? null : (
				<Button type="submit" size="sm" variant="outline">
					Update
				</Button>
			)}
		</Form>
	)
}
