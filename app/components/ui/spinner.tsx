import { cn } from '#app/utils/misc.ts'

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
	return (
		<span role="status" className={cn('inline-flex items-center gap-2', className)}>
			<span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent" />
			<span className="sr-only">{label}</span>
		</span>
	)
}
