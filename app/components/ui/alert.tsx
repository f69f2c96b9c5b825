import type { HTMLAttributes, ReactNode } from 'react'
import { cn } from '#app/utils/misc.ts'

export type AlertTone = 'success' | 'warning' | 'error' | 'info'

const tones: Record<AlertTone, string> = {
	success: 'border-green-300 bg-green-50 text-green-900',
	warning: 'border-amber-300 bg-amber-50 text-amber-900',
	error: 'border-red-300 bg-red-50 text-red-900',
	info: 'border-blue-300 bg-blue-50 text-blue-900',
}

/** A coloured notice card. Errors are announced at once; the rest politely. */
export function Alert({
	tone = 'info',
	title,
	className,
	children,
	...props
}: HTMLAttributes<HTMLDivElement> & { tone?: AlertTone; title?: ReactNode }) {
	return (
		<div role={tone === 'error' ? 'alert' : 'status'} className={cn('rounded-lg border p-4 text-sm', tones[tone], className)} {...props}>
			{title ? <p className="font-semibold">{title}</p> : null}
			{children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
		</div>
	)
}

/** A form's own errors (not a field's), each on its line, or nothing when there are none. */
export function FormErrors({ id, errors }: { id?: string; errors: string[] | undefined }) {
	if (!errors?.length) return null
	return (
		<Alert tone="error" id={id}>
			{errors.map((error) => (
				<p key={error}>{error}</p>
			))}
		</Alert>
	)
}
