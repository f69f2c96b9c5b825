import { Fragment } from 'react'
import { cn } from '#app/utils/misc.ts'

/**
 * An e-mail address that wraps, when it must, before its '@' or a dot, never inside a word
 * (a hyphen stays a break too). Its narrowest width is then its longest part, which a table
 * column keeps.
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
	const parts = email.split(/(?=[@.])/)
	return (
		<span className={cn('[overflow-wrap:normal]', className)}>
			{parts.map((part, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address, in order
				<Fragment key={index}>
					{index > 0 ? <wbr /> : null}
					{part}
				</Fragment>
			))}
		</span>
	)
}
