import { cn } from '#app/utils/misc.ts'

/** The two-letter avatar ('UN' for a missing name); decorative, as the name is always shown beside it. */
export function InitialsAvatar({ initials, className }: { initials: string; className?: string }) {
	return (
		<span
			aria-hidden="true"
			className={cn(
				'inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800',
				className,
			)}
		>
			{initials}
		</span>
	)
}
