import type { ReactNode } from 'react'
import { PageHero } from './page-hero.tsx'

export type LegalSection = { id: string; title: string; body: ReactNode }

/** Terms and privacy share one layout: a contents list beside numbered sections. */
export function LegalPage({
	title,
	description,
	updated,
	sections,
}: {
	title: string
	description: string
	updated: string
	sections: LegalSection[]
}) {
	return (
		<>
			<PageHero eyebrow="Legal" title={title} description={description} />
			<div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 lg:grid-cols-[16rem_1fr] lg:py-16">
				<aside className="lg:sticky lg:top-24 lg:self-start">
					<nav aria-label="On this page" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
						<p className="text-sm font-semibold text-ink">On this page</p>
						<ol className="mt-3 ml-5 list-decimal space-y-2 text-sm text-slate-600 marker:font-medium">
							{sections.map((section) => (
								<li key={section.id}>
									<a href={`#${section.id}`} className="text-slate-700 hover:text-brand-700 hover:underline">
										{section.title}
									</a>
								</li>
							))}
						</ol>
					</nav>
				</aside>
				<article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
					<p className="text-sm text-slate-600">Last updated: {updated}</p>
					{sections.map((section) => (
						<section
							key={section.id}
							id={section.id}
							aria-labelledby={`${section.id}-title`}
							className="mt-10 scroll-mt-24 first-of-type:mt-6"
						>
							<h2 id={`${section.id}-title`} className="text-xl font-semibold text-ink">
								{section.title}
							</h2>
							<div className="mt-3 space-y-3 leading-relaxed text-slate-700 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-1.5">
								{section.body}
							</div>
						</section>
					))}
				</article>
			</div>
		</>
	)
}
