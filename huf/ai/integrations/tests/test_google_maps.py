"""Google Maps tools against a scripted Places / Routes / Geocoding API (the settings' Base URL takes the
three Google hosts): the requests as Google documents them, the key only in X-Goog-Api-Key."""

import frappe

from huf.ai.integrations.services.google_maps import (
	gmaps_geocode,
	gmaps_get_directions,
	gmaps_reverse_geocode,
	gmaps_search_places,
)
from huf.api.integrations import test_connection as run_connection_test
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

API_KEY = "AIzaSyD-google-maps-test-key"
PLACE = {
	"id": "ChIJ2Z2idB66j4ARI43TG-9RoCQ",
	"displayName": {"text": "Googleplex", "languageCode": "en"},
	"formattedAddress": "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA",
	"rating": 4.5,
	"userRatingCount": 1200,
	"location": {"latitude": 37.422, "longitude": -122.084},
	"googleMapsUri": "https://maps.google.com/?cid=1",
}
GEOCODED = {
	"results": [
		{
			"placeId": PLACE["id"],
			"location": {"latitude": 37.4438238, "longitude": -122.0869895},
			"formattedAddress": PLACE["formattedAddress"],
			"types": ["street_address"],
		}
	]
}


class TestGoogleMapsTools(ServiceToolTestCase):
	SERVICE = "google_maps"
	CREDENTIALS = {"api_key": API_KEY}

	def assert_key_in_header_only(self, request: dict) -> None:
		self.assertEqual(request["headers"]["x-goog-api-key"], API_KEY)
		self.assertNotIn(API_KEY, request["path"] + str(request["query"]))

	def test_search_places_posts_a_text_search_with_a_field_mask(self):
		self.api.queue({"places": [PLACE]})
		result = gmaps_search_places(query="Googleplex", limit=3)
		self.assertEqual(
			result,
			{
				"count": 1,
				"places": [
					{
						"place_id": PLACE["id"],
						"name": "Googleplex",
						"address": PLACE["formattedAddress"],
						"rating": 4.5,
						"ratings": 1200,
						"lat": 37.422,
						"lng": -122.084,
						"maps_url": "https://maps.google.com/?cid=1",
					}
				],
			},
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/v1/places:searchText"))
		self.assertEqual(request["json"], {"textQuery": "Googleplex", "pageSize": 3})
		self.assertIn("places.formattedAddress", request["headers"]["x-goog-fieldmask"])
		self.assert_key_in_header_only(request)

	def test_directions_compute_a_route_with_the_travel_mode(self):
		self.api.queue(
			{
				"routes": [
					{
						"distanceMeters": 14200,
						"duration": "1260s",
						"description": "A3",
						"localizedValues": {"distance": {"text": "14.2 km"}, "duration": {"text": "21 mins"}},
					}
				]
			}
		)
		result = gmaps_get_directions(origin="Köln Dom", destination="Bonn Hbf", mode="bicycling")
		self.assertEqual(
			result,
			{
				"found": True,
				"origin": "Köln Dom",
				"destination": "Bonn Hbf",
				"mode": "bicycling",
				"distance": "14.2 km",
				"duration": "21 mins",
				"distance_meters": 14200,
				"duration_seconds": 1260,
				"summary": "A3",
			},
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/directions/v2:computeRoutes"))
		self.assertEqual(
			request["json"],
			{
				"origin": {"address": "Köln Dom"},
				"destination": {"address": "Bonn Hbf"},
				"travelMode": "BICYCLE",
			},
		)
		self.assertIn("routes.duration", request["headers"]["x-goog-fieldmask"])
		self.assert_key_in_header_only(request)
		self.api.queue({})
		self.assertFalse(gmaps_get_directions(origin="A", destination="B")["found"])
		with self.assertRaisesRegex(frappe.ValidationError, "mode must be one of"):
			gmaps_get_directions(origin="A", destination="B", mode="flying")

	def test_geocode_and_reverse_geocode(self):
		self.api.queue(GEOCODED, GEOCODED)
		result = gmaps_geocode(address="1600 Amphitheatre Parkway, Mountain View")
		self.assertEqual(
			(result["found"], result["lat"], result["lng"], result["place_id"]),
			(True, 37.4438238, -122.0869895, PLACE["id"]),
		)
		reverse = gmaps_reverse_geocode(lat="37.4438", lng=-122.087)
		self.assertEqual(reverse["address"], PLACE["formattedAddress"])
		forward, backward = self.api.requests
		self.assertEqual(
			(forward["method"], forward["path"]),
			("GET", "/v4/geocode/address/1600%20Amphitheatre%20Parkway%2C%20Mountain%20View"),
		)
		self.assertEqual(backward["path"], "/v4/geocode/location/37.4438,-122.087")
		self.assert_key_in_header_only(forward)
		self.assert_key_in_header_only(backward)
		self.api.queue({})
		self.assertEqual(gmaps_geocode(address="nowhere at all"), {"found": False})

	def test_connection_geocodes_an_address(self):
		self.api.queue(GEOCODED)
		self.assertEqual(
			run_connection_test(self.settings), {"ok": True, "message": "Connected to Google Maps."}
		)
		self.assertEqual(self.api.requests[0]["path"], "/v4/geocode/address/Googleplex")
		self.assert_key_in_header_only(self.api.requests[0])

	def test_bad_coordinates_are_refused_before_any_request(self):
		for lat, lng in (("91", "0"), ("0", "-181"), ("north", "0"), ("1/../x", "0")):
			with self.assertRaisesRegex(frappe.ValidationError, "must be a number between"):
				gmaps_reverse_geocode(lat=lat, lng=lng)
		self.assertEqual(self.api.requests, [])

	def test_a_google_error_is_readable_without_the_key(self):
		self.api.queue(
			reply(
				{
					"error": {
						"code": 403,
						"message": "Places API (New) has not been used in project 1 before or it is disabled.",
						"status": "PERMISSION_DENIED",
					}
				},
				status=403,
			)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			gmaps_search_places(query="pizza")
		self.assertIn("Google Maps answered 403: Places API (New) has not been used", str(caught.exception))
		self.assert_no_secret(str(caught.exception))
