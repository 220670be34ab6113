"""Google Maps tools: search places (Places API (New)), directions (Routes API) and forward / reverse
geocoding (Geocoding API v4). One API key, sent as `X-Goog-Api-Key` to each of Google's hosts (never in a
URL); the settings' own Base URL, when set, takes all three APIs (a proxy, or the tests' scripted API)."""

from urllib.parse import quote

import frappe
from frappe import _

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import choice, limit_of, param, require, tool

SERVICE = "google_maps"
PLACES = "https://places.googleapis.com"
ROUTES = "https://routes.googleapis.com"
PLACE_FIELDS = (
	"places.id,places.displayName,places.formattedAddress,places.rating,places.userRatingCount,"
	"places.location,places.googleMapsUri"
)
ROUTE_FIELDS = "routes.distanceMeters,routes.duration,routes.localizedValues,routes.description"
TRAVEL_MODES = {
	"driving": "DRIVE",
	"walking": "WALK",
	"bicycling": "BICYCLE",
	"transit": "TRANSIT",
	"two_wheeler": "TWO_WHEELER",
}


def gmaps_search_places(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Places matching a text query ("pizza near Koeln Dom"), best match first."""
	body = {"textQuery": str(require(query, "query")), "pageSize": limit_of(limit, default=10, maximum=20)}
	found = service_client(SERVICE, settings).request(
		"POST",
		"/v1/places:searchText",
		json=body,
		headers={"X-Goog-FieldMask": PLACE_FIELDS},
		api_base=PLACES,
	)
	places = [
		{
			"place_id": p.get("id"),
			"name": (p.get("displayName") or {}).get("text"),
			"address": p.get("formattedAddress"),
			"rating": p.get("rating"),
			"ratings": p.get("userRatingCount"),
			"lat": (p.get("location") or {}).get("latitude"),
			"lng": (p.get("location") or {}).get("longitude"),
			"maps_url": p.get("googleMapsUri"),
		}
		for p in (found.get("places") or [])[: body["pageSize"]]
	]
	return {"count": len(places), "places": places}


def _seconds(duration) -> int | None:
	"""Seconds of a protobuf Duration ("1234s")."""
	try:
		return round(float(str(duration).rstrip("s")))
	except (TypeError, ValueError):
		return None


def gmaps_get_directions(
	origin: str, destination: str, mode: str | None = None, settings: str | None = None
) -> dict:
	"""Distance and travel time of the best route between two places (addresses or names)."""
	mode = (mode or "driving").strip().lower()
	if mode not in TRAVEL_MODES:
		frappe.throw(_("mode must be one of {0}.").format(", ".join(TRAVEL_MODES)), frappe.ValidationError)
	body = {
		"origin": {"address": str(require(origin, "origin"))},
		"destination": {"address": str(require(destination, "destination"))},
		"travelMode": TRAVEL_MODES[mode],
	}
	found = service_client(SERVICE, settings).request(
		"POST",
		"/directions/v2:computeRoutes",
		json=body,
		headers={"X-Goog-FieldMask": ROUTE_FIELDS},
		api_base=ROUTES,
	)
	routes = found.get("routes") or []
	if not routes:
		return {"found": False, "origin": origin, "destination": destination, "mode": mode}
	route = routes[0]
	localized = route.get("localizedValues") or {}
	return {
		"found": True,
		"origin": origin,
		"destination": destination,
		"mode": mode,
		"distance": (localized.get("distance") or {}).get("text"),
		"duration": (localized.get("duration") or {}).get("text"),
		"distance_meters": route.get("distanceMeters"),
		"duration_seconds": _seconds(route.get("duration")),
		"summary": route.get("description"),
	}


def _place(result: dict) -> dict:
	location = result.get("location") or {}
	return {
		"address": result.get("formattedAddress"),
		"lat": location.get("latitude"),
		"lng": location.get("longitude"),
		"place_id": result.get("placeId"),
		"types": (result.get("types") or [])[:5],
	}


def _geocoded(found: dict) -> dict:
	results = [_place(r) for r in (found.get("results") or [])[:5] if isinstance(r, dict)]
	if not results:
		return {"found": False}
	return {"found": True, **results[0], "alternatives": results[1:]}


def gmaps_geocode(address: str, settings: str | None = None) -> dict:
	"""Coordinates of an address (the best match, and up to four others)."""
	path = "/v4/geocode/address/" + quote(str(require(address, "address")).strip(), safe="")
	return _geocoded(service_client(SERVICE, settings).request("GET", path))


def _coordinate(value, label: str, bound: float) -> float:
	try:
		number = float(require(value, label))
	except (TypeError, ValueError):
		number = None
	if number is None or not -bound <= number <= bound:
		frappe.throw(
			_("{0} must be a number between -{1} and {1}.").format(label, int(bound)), frappe.ValidationError
		)
	return number


def gmaps_reverse_geocode(lat, lng, settings: str | None = None) -> dict:
	"""The address at a latitude / longitude."""
	latitude, longitude = _coordinate(lat, "lat", 90), _coordinate(lng, "lng", 180)
	path = f"/v4/geocode/location/{latitude},{longitude}"
	return _geocoded(service_client(SERVICE, settings).request("GET", path))


_PATH = "huf.ai.integrations.services.google_maps."
TOOLS = [
	tool(
		"gmaps_search_places",
		_PATH + "gmaps_search_places",
		"Search places on Google Maps by text (e.g. 'vegan restaurants in Berlin Mitte'): name, address, rating, coordinates.",
		[
			param("query", "string", "What and where to search.", 1),
			param("limit", "integer", "How many places (1-20, default 10)."),
		],
	),
	tool(
		"gmaps_get_directions",
		_PATH + "gmaps_get_directions",
		"Distance and travel time between two places with Google Maps.",
		[
			param("origin", "string", "Starting address or place name.", 1),
			param("destination", "string", "Destination address or place name.", 1),
			choice("mode", "Travel mode (default driving).", list(TRAVEL_MODES)),
		],
	),
	tool(
		"gmaps_geocode",
		_PATH + "gmaps_geocode",
		"Convert an address to coordinates (latitude, longitude) with Google Maps.",
		[param("address", "string", "The address, e.g. 1600 Amphitheatre Parkway, Mountain View.", 1)],
	),
	tool(
		"gmaps_reverse_geocode",
		_PATH + "gmaps_reverse_geocode",
		"Convert coordinates to the address at that place with Google Maps.",
		[
			param("lat", "number", "Latitude, -90 to 90.", 1),
			param("lng", "number", "Longitude, -180 to 180.", 1),
		],
	),
]
