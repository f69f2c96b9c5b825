import type { ReactNode } from 'react'

/** The centred card every sign-in page uses. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
	return (
		<div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
			<div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
				<h1 className="text-2xl font-bold text-ink">{title}</h1>
				{subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
				<div className="mt-6 space-y-5">{children}</div>
			</div>
		</div>
	)
}
