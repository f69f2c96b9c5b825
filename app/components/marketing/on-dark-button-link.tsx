import { Link, type LinkProps } from 'react-router'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { cn } from '#app/utils/misc.ts'

/** A large outlined button for dark brand backgrounds, where the design-system outline (white fill) would vanish. */
export function OnDarkButtonLink({ className, ...props }: LinkProps) {
	return (
		<Link
			className={cn(
				'inline-flex h-12 items-center justify-center gap-2 rounded-md border border-brand-200 px-6 text-base font-semibold text-white transition-colors hover:bg-brand-800',
				className,
			)}
			{...props}
		/>
	)
}

/** The marketing pages' two calls to action on a dark band: register, or write to us first. */
export function GetStartedOnDark({ className }: { className?: string }) {
	return (
		<ActionList className={cn('mt-8 flex flex-col gap-3 sm:flex-row', className)}>
			<ButtonLink to="/register" variant="secondary" size="lg">
				Get Started
			</ButtonLink>
			<OnDarkButtonLink to="/contact">Email Us</OnDarkButtonLink>
		</ActionList>
	)
}
