import { type AnchorHTMLAttributes, type ButtonHTMLAttributes, forwardRef } from 'react'
import { Link, type LinkProps } from 'react-router'
import { cn } from '#app/utils/misc.ts'

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive' | 'link'
export type ButtonSize = 'sm' | 'md' | 'lg'

const variants: Record<ButtonVariant, string> = {
	primary: 'bg-brand-700 text-white hover:bg-brand-800 shadow-sm',
	secondary: 'bg-amber-400 text-ink hover:bg-amber-300 shadow-sm',
	outline: 'border border-slate-300 bg-white text-ink hover:bg-slate-100',
	ghost: 'text-ink hover:bg-slate-100',
	destructive: 'bg-red-700 text-white hover:bg-red-800 shadow-sm',
	link: 'text-brand-700 underline-offset-4 hover:underline px-0',
}

const sizes: Record<ButtonSize, string> = {
	sm: 'h-8 px-3 text-sm',
	md: 'h-10 px-4 text-sm',
	lg: 'h-12 px-6 text-base',
}

export function buttonClasses({
	variant = 'primary',
	size = 'md',
	className,
}: {
	variant?: ButtonVariant
	size?: ButtonSize
	className?: string
} = {}) {
	return cn(
		'inline-flex items-center justify-center gap-2 rounded-md font-semibold transition-colors',
		'disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50',
		variants[variant],
		variant === 'link' ? 'h-auto' : sizes[size],
		className,
	)
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
	variant?: ButtonVariant
	size?: ButtonSize
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
	{ variant, size, className, type = 'button', ...props },
	ref,
) {
	return <button ref={ref} type={type} className={buttonClasses({ variant, size, className })} {...props} />
})

export function ButtonLink({ variant, size, className, ...props }: LinkProps & { variant?: ButtonVariant; size?: ButtonSize }) {
	return <Link className={buttonClasses({ variant, size, className })} {...props} />
}

/** A plain link styled as a button, for an address the router does not serve (mailto:, a download). */
export function ButtonAnchor({
	variant,
	size,
	className,
	children,
	...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: ButtonVariant; size?: ButtonSize }) {
	return (
		<a className={buttonClasses({ variant, size, className })} {...props}>
			{children}
		</a>
	)
}
