// No test may reach the network: only loopback servers the tests start themselves are allowed.
import nock from 'nock';

nock.disableNetConnect();
nock.enableNetConnect((host) => /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host));
