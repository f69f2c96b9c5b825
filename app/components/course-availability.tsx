import type { Availability, AvailabilityTone } from '#app/models/courses/courses.ts'
import { cn } from '#app/utils/misc.ts'
import { formatPrice } from '#app/utils/money.ts'
import { Badge } from './ui/badge.tsx'

/** Text shades dark enough for WCAG AA on white and on the light page background. */
export const availabilityTextClasses: Record<AvailabilityTone, string> = {
	green: 'text-green-800',
	orange: 'text-orange-800',
	red: 'text-red-700',
}

const barClasses: Record<AvailabilityTone, string> = {
	green: 'bg-green-600',
	orange: 'bg-orange-500',
	red: 'bg-red-600',
}

function spotsLeftText({ spotsLeft, isFull }: Pick<Availability, 'spotsLeft' | 'isFull'>) {
	if (isFull) return 'Course is full'
	return `${spotsLeft} ${spotsLeft === 1 ? 'spot' : 'spots'} left`
}

/** 'N spots left' (or 'Course is full') in the colour of the availability tone. */
export function SpotsLeft({ availability, className }: { availability: Availability; className?: string }) {
	// A span: it sits inside the wizard's course labels, which may hold phrasing content only.
	return (
		<span className={cn('block text-sm font-semibold', availabilityTextClasses[availability.tone], className)}>
			{spotsLeftText(availability)}
		</span>
	)
}

/** FULL or ALMOST FULL, or nothing while plenty of spots are left. */
export function AvailabilityBadge({ availability }: { availability: Pick<Availability, 'isFull' | 'isAlmostFull'> }) {
	if (availability.isFull) return <Badge tone="red">FULL</Badge>
	if (availability.isAlmostFull) return <Badge tone="orange">ALMOST FULL</Badge>
	return null
}

/** The registration fee: FREE at 0, otherwise US dollars. */
export function CoursePrice({ cents, className }: { cents: number; className?: string }) {
	return <span className={cn('font-bold text-ink', className)}>{formatPrice(cents)}</span>
}

/** Seats taken out of the capacity, as a bar for the eye and a value for screen readers. */
export function SeatsProgress({
	availability,
	capacity,
	label = 'Seats taken',
	className,
}: {
	availability: Pick<Availability, 'taken' | 'tone'>
	capacity: number
	label?: string
	className?: string
}) {
	const shown = Math.min(availability.taken, capacity)
	const percent = capacity > 0 ? Math.round((shown / capacity) * 100) : 100
	return (
		<div
			role="progressbar"
			aria-label={label}
			aria-valuemin={0}
			aria-valuemax={capacity}
			aria-valuenow={shown}
			aria-valuetext={`${availability.taken} of ${capacity}`}
			className={cn('h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
		>
			<div className={cn('h-full rounded-full', barClasses[availability.tone])} style={{ width: `${percent}%` }} />
		</div>
	)
}
