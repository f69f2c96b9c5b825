import { Links, Meta, NavLink, Outlet, Scripts, ScrollRestoration } from 'react-router'

export function Layout({ children }: { children: React.ReactNode }) {
	return (
		<html lang="en">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<title>Floor</title>
				<Meta />
				<Links />
			</head>
			<body>
				<header>
					<nav aria-label="Main">
						<NavLink to="/">Home</NavLink>
					</nav>
				</header>
				{children}
				<ScrollRestoration />
				<Scripts />
			</body>
		</html>
	)
}

export default function App() {
	return <Outlet />
}
