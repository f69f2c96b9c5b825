import pg from 'pg'
import { useLoaderData } from 'react-router'

/** The bench's server gives the build its database (the same one the app under test uses). */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })

type Item = { id: number; title: string; summary: string }

export async function loader() {
	const { rows } = await pool.query<Item>(
		`SELECT n AS id, 'Item ' || n AS title, 'About item ' || n AS summary
		 FROM generate_series(1, 40) AS n`,
	)
	return { items: rows }
}

export default function Home() {
	const { items } = useLoaderData<typeof loader>()
	return (
		<main>
			<h1>Items</h1>
			<ul>
				{items.map((item) => (
					<li key={item.id}>
						<strong>{item.title}</strong> <span>{item.summary}</span>
					</li>
				))}
			</ul>
		</main>
	)
}
