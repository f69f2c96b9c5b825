import { Children, type ReactNode } from 'react'
import { cn } from '#app/utils/misc.ts'

/**
 * Links or buttons side by side (calls to action, a card's actions, a toolbar) as a list: a text
 * browser puts each on a line of its own rather than running their names together, and a screen
 * reader says how many there are. `className` lays the list out as the row of controls was, and
 * `itemClassName` sizes the items in it (`flex-1`). Each item is a grid of one cell, so its control
 * fills the item where the row stretches its items (a column on phones) and keeps its own size
 * where it does not.
 */
export function ActionList({ className, itemClassName, children }: { className?: string; itemClassName?: string; children: ReactNode }) {
	return (
		<ul className={className}>
			{Children.map(children, (child) => (child ? <li className={cn('grid', itemClassName)}>{child}</li> : null))}
		</ul>
	)
}
