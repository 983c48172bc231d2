"""Which addresses a webhook may reach: every block of IANA's IPv4 and IPv6 special-purpose
address registries is refused (issue 45: site-local ``fec0::1`` and ``192.0.0.8`` passed),
IPv6 addresses that carry an IPv4 one are judged by it, and a refused host is told one
sentence, whatever it resolved to: the answer maps neither the server's network nor its
DNS."""

from __future__ import annotations

import ipaddress

import pytest
from account_helpers import session
from api_helpers import API, assert_problem, bearer
from flask.testing import FlaskClient

from hanabi.server.ops import outbound

#: Every special-purpose block (the issue's list, IANA's registries), written here apart
#: from the server's own table: its first, middle and last addresses must be refused. The
#: three that carry an IPv4 address (::ffff:0:0/96, 64:ff9b::/96, 2002::/16) are not
#: refused whole: :data:`CARRYING`.
SPECIAL = [
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.31.196.0/24", "192.52.193.0/24",
    "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
    "::/128", "::1/128", "::/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001::/32",
    "2001:2::/48", "2001:10::/28", "2001:20::/28", "2001:db8::/32", "3fff::/20", "5f00::/16", "fc00::/7", "fd00::/8", "fe80::/10", "fec0::/10",
    "ff00::/8",
]  # fmt: skip

#: IPv6 addresses that carry a special IPv4 one: refused as that address is.
CARRYING = [
    "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "::ffff:192.0.0.8",
    "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::c000:8", "2002:7f00:1::1",
    "2002:a9fe:a9fe::", "2002:c000:8::1", "2002:c0a8:101::1", "::ffff:0.0.0.0",
    "::ffff:255.255.255.255", "64:ff9b::", "64:ff9b::ffff:ffff", "2002::",
    "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2002:e000:1::1", "::ffff:224.0.0.251",
]  # fmt: skip

#: Public addresses, many just outside a special block: each may be called.
PUBLIC = [
    "1.1.1.1", "8.8.8.8", "93.184.216.34", "9.255.255.255", "11.0.0.0", "100.63.255.255",
    "100.128.0.0", "126.255.255.255", "128.0.0.0", "169.253.255.255", "169.255.0.0",
    "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.0.3.0", "192.31.195.255",
    "192.31.197.0", "192.52.192.255", "192.52.194.0", "192.88.98.255", "192.88.100.0",
    "192.167.255.255", "192.169.0.0", "192.175.47.255", "192.175.49.0", "198.17.255.255",
    "198.20.0.0", "198.51.99.255", "198.51.101.0", "203.0.112.255", "203.0.114.0",
    "223.255.255.255", "2606:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001::1",
    "2001:200::1", "2001:db7:ffff::1", "2001:db9::1", "3ffe:ffff::1", "3fff:1000::1",
    "::ffff:93.184.216.34", "64:ff9b::5db8:d822", "2002:5db8:d822::1",
]  # fmt: skip


@pytest.mark.parametrize("block", SPECIAL)
def test_every_special_purpose_block_is_refused(block: str) -> None:
    network = ipaddress.ip_network(block)
    for address in {network[0], network[network.num_addresses // 2], network[-1]}:
        assert not outbound.is_public(str(address)), f"{address} of {block} passed"


@pytest.mark.parametrize("address", CARRYING)
def test_an_ipv6_address_is_judged_by_the_ipv4_one_it_carries(address: str) -> None:
    assert not outbound.is_public(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address: str) -> None:
    assert outbound.is_public(address)


def test_an_address_with_a_zone_is_judged_without_it() -> None:
    assert not outbound.is_public("fe80::1%eth0") and not outbound.is_public("fec0::1%2")


#: Hosts refused for what they are or resolve to, of every kind: each gets one sentence.
REFUSED_HOSTS = [
    "https://[fec0::1]/hook", "https://192.0.0.8/", "https://10.1.2.3/", "https://127.0.0.1/",
    "https://169.254.169.254/latest/meta-data", "https://[::1]:8443/", "https://[fd00::5]/",
    "https://[::ffff:10.0.0.1]/", "https://[2002:a9fe:a9fe::1]/", "https://[64:ff9b::a00:1]/",
    "https://198.51.100.7/", "https://localhost/x", "https://no-such-host.invalid/",
]  # fmt: skip


def test_every_refused_host_is_told_one_sentence_naming_no_address(aclient: FlaskClient) -> None:
    """The refusal used to say which address a host resolved to: a way to read the
    server's internal DNS one name at a time. Now one sentence (and code) for every
    refused host, in the reader's language, whatever it resolved to or did not."""
    _, token = session(aclient)
    said = {}
    for language in ("en", "ru", "zh-Hans"):
        headers = {**bearer(token), "Accept-Language": language}
        details = set()
        for url in REFUSED_HOSTS:
            response = aclient.put(f"{API}/accounts/me/webhook", headers=headers,
                                   json={"url": url})  # fmt: skip
            body = assert_problem(response, 400, "webhook_url_refused")
            for telling in ("127.0.0.1", "::1", "10.", "169.254", "fec0", "192.0.0", "resolve"):
                assert telling not in body["detail"], (url, body["detail"])
            details.add(body["detail"])
        assert len(details) == 1, (language, details)
        said[language] = details.pop()
    assert said["en"] == "This address cannot receive webhooks: use a public https address."
    assert len(set(said.values())) == 3  # each in the reader's words
