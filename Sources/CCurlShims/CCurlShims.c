#include "CCurlShims.h"
