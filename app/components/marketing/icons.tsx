import type { SVGProps } from 'react'
import { cn } from '#app/utils/misc.ts'

/** Simple line icons drawn for this site; decorative, so hidden from screen readers. */
const paths = {
	building: 'M4 21V7l8-4 8 4v14M4 21h16M9 21v-5h6v5M8 10h2M14 10h2M8 13h2M14 13h2',
	coins:
		'M8 8a5 2.5 0 1 0 10 0a5 2.5 0 1 0-10 0M8 8v4c0 1.4 2.2 2.5 5 2.5s5-1.1 5-2.5V8M3 14a5 2.5 0 0 0 10 0M3 14v4c0 1.4 2.2 2.5 5 2.5s5-1.1 5-2.5v-1.5',
	users:
		'M9 11a3.5 3.5 0 1 0 0-7a3.5 3.5 0 0 0 0 7ZM2.5 20c.6-3.4 3.2-5.5 6.5-5.5s5.9 2.1 6.5 5.5M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14.8c2 .7 3.2 2.6 3.5 5.2',
	calculator:
		'M6 3h12a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1ZM8 6h8v3H8ZM8 13h1M12 13h1M16 13h0M8 17h1M12 17h1M16 13v4',
	handshake:
		'M3 11l4-4 4 2 3-2 4 1 3 3M3 11l5 5c.8.8 2 .8 2.8 0M21 11l-5 5c-.8.8-2 .8-2.8 0l-2.4-2.4M11 9l-2.5 2.5c-.6.6-.6 1.5 0 2.1s1.5.6 2.1 0L13 11',
	key: 'M14.5 3a6.5 6.5 0 1 1-5.6 9.8L3 18.7V21h3v-2h2v-2h2l1.2-1.2A6.5 6.5 0 0 1 14.5 3ZM16 8h.01',
	monitor: 'M3 4h18v12H3ZM8 20h8M12 16v4',
	calendar: 'M4 6h16v14H4ZM4 10h16M8 3v5M16 3v5',
	clock: 'M12 21a9 9 0 1 0 0-18a9 9 0 0 0 0 18ZM12 7v5l3 2',
	tag: 'M3 12V4h8l10 10-8 8ZM7.5 8.5h.01',
	check: 'M5 12.5l4.5 4.5L19 7.5',
	mail: 'M3 6h18v12H3ZM3 7l9 6 9-6',
	mapPin: 'M12 21s7-6.2 7-11.5a7 7 0 1 0-14 0C5 14.8 12 21 12 21ZM12 12a2.5 2.5 0 1 0 0-5a2.5 2.5 0 0 0 0 5Z',
	search: 'M10.5 18a7.5 7.5 0 1 0 0-15a7.5 7.5 0 0 0 0 15ZM16 16l5 5',
	filter: 'M3 5h18l-7 8.5V20l-4-2v-4.5Z',
	chat: 'M4 5h16v11H9l-5 4ZM8 9h8M8 12h5',
	star: 'M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9Z',
	trendingUp: 'M3 17l6-6 4 4 8-8M15 7h6v6',
	home: 'M3 11l9-7 9 7M5 9.5V20h14V9.5M10 20v-6h4v6',
	target: 'M12 21a9 9 0 1 0 0-18a9 9 0 0 0 0 18ZM12 16a4 4 0 1 0 0-8a4 4 0 0 0 0 8ZM12 12h.01',
	arrowRight: 'M5 12h14M13 6l6 6-6 6',
	plus: 'M12 5v14M5 12h14',
	chevronDown: 'M6.5 9l5.5 5.5L17.5 9',
} as const

export type IconName = keyof typeof paths

export function Icon({ name, className, ...props }: SVGProps<SVGSVGElement> & { name: IconName }) {
	return (
		<svg
			aria-hidden="true"
			viewBox="0 0 24 24"
			fill="none"
			stroke="currentColor"
			strokeWidth={1.8}
			strokeLinecap="round"
			strokeLinejoin="round"
			className={cn('size-5 shrink-0', className)}
			{...props}
		>
			<path d={paths[name]} />
		</svg>
	)
}
