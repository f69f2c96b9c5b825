import { Link, type LinkProps } from 'react-router'
import { cn } from '#app/utils/misc.ts'

/** A large outlined button for dark brand backgrounds, where the design-system outline (white fill) would vanish. */
export function OnDarkButtonLink({ className, ...props }: LinkProps) {
	return (
		<Link
			className={cn(
				'inline-flex h-12 items-center justify-center gap-2 rounded-md border border-white/50 px-6 text-base font-semibold text-white transition-colors hover:bg-white/10',
				className,
			)}
			{...props}
		/>
	)
}
