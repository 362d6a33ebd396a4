import { describe, expect, it } from 'vitest';
import { jsonDumps } from '../../src/py/json.js';
import { pyDict, type PyDict, type PyValue } from '../../src/py/value.js';
import { VehicleControlAPI } from '../../src/sim/vehicle-control-api.js';
import { EMPTY_CONTEXT, callMethod, loadSim, raised, show } from '../helpers/sim.js';

const api = (scenario: Record<string, PyValue> = {}, longContext = false, ctx = EMPTY_CONTEXT): VehicleControlAPI =>
  loadSim((c) => new VehicleControlAPI(c), scenario, longContext, ctx);

const allLocked = (): PyDict =>
  pyDict({ driver: 'locked', passenger: 'locked', rear_left: 'locked', rear_right: 'locked' });

/** A car ready to start: doors locked, brake fully pressed. */
function ready(extra: Record<string, PyValue> = {}): VehicleControlAPI {
  return api({ doorStatus: allLocked(), brakePedalStatus: 'pressed', brakePedalForce: 1000.0, fuelLevel: 15.5, ...extra });
}

const longCtx = {
  longContext: pyDict({
    CAR_STATUS_METADATA_EXTENSION: 'Manufacturer: Audi',
    PARKING_BRAKE_INSTRUCTION: 'Pull the lever.',
    INTERMEDIARY_CITIES: ['New Hamilton', 'Jacksonville'],
    LONG_WEATHER_EXTENSION: pyDict({ '-1_day': pyDict({ windSpeed: 15.0, uvIndex: 6n }) }),
  }),
};

describe('VehicleControlAPI scenario loading', () => {
  it('has the reference defaults in vars() order, floats kept as floats', () => {
    const v = api();
    expect(v._publicState().map(([k]) => k)).toEqual([
      'fuelLevel',
      'batteryVoltage',
      'engine_state',
      'remainingUnlockedDoors',
      'doorStatus',
      'acTemperature',
      'fanSpeed',
      'acMode',
      'humidityLevel',
      'headLightStatus',
      'parkingBrakeStatus',
      'brakePedalStatus',
      'distanceToNextVehicle',
      'cruiseStatus',
      'destination',
      'frontLeftTirePressure',
      'frontRightTirePressure',
      'rearLeftTirePressure',
      'rearRightTirePressure',
      'long_context',
    ]);
    expect(jsonDumps(new Map(v._publicState()))).toBe(
      '{"fuelLevel": 0.0, "batteryVoltage": 12.6, "engine_state": "stopped", "remainingUnlockedDoors": 4, ' +
        '"doorStatus": {"driver": "unlocked", "passenger": "unlocked", "rear_left": "unlocked", "rear_right": "unlocked"}, ' +
        '"acTemperature": 25.0, "fanSpeed": 50, "acMode": "auto", "humidityLevel": 50.0, "headLightStatus": "off", ' +
        '"parkingBrakeStatus": "released", "brakePedalStatus": "released", "distanceToNextVehicle": 50.0, ' +
        '"cruiseStatus": "inactive", "destination": "None", "frontLeftTirePressure": 32.0, "frontRightTirePressure": 32.0, ' +
        '"rearLeftTirePressure": 30.0, "rearRightTirePressure": 30.0, "long_context": false}',
    );
  });

  it('maps scenario keys and recomputes remainingUnlockedDoors', () => {
    const v = api({
      engineState: 'running',
      remainingUnlockedDoors: 4n,
      doorStatus: pyDict({ driver: 'locked', passenger: 'unlocked', rear_left: 'locked', rear_right: 'locked' }),
      parkingBrakeForce: 100.0,
      slopeAngle: 5.0,
      brakePedalForce: 300.0,
    });
    expect(v.engine_state).toBe('running');
    expect(v.remainingUnlockedDoors).toBe(1n);
    expect(show(v.displayCarStatus('parkingBrake'))).toBe(
      '{"parkingBrakeStatus": "released", "parkingBrakeForce": 100.0, "slopeAngle": 5.0}',
    );
    expect(show(v.displayCarStatus('brakePedal'))).toBe('{"brakePedalStatus": "released", "brakePedalForce": 300.0}');
    expect(v._publicState().some(([k]) => k.includes('Force') || k === 'engineState')).toBe(false);
  });
});

describe('VehicleControlAPI engine', () => {
  it('starts when doors are locked and the brake is fully pressed', () => {
    const v = ready();
    expect(show(callMethod(v, 'startEngine', { ignitionMode: 'START' }))).toBe(
      '{"engineState": "running", "fuelLevel": 15.5, "batteryVoltage": 12.6}',
    );
    expect(v.engine_state).toBe('running');
  });

  it('checks doors, brake pedal, brake force and fuel in that order', () => {
    const twoOpen = pyDict({ driver: 'locked', passenger: 'unlocked', rear_left: 'locked', rear_right: 'unlocked' });
    expect(show(api({ doorStatus: twoOpen }).startEngine('START'))).toBe(
      '{"error": "All doors must be locked before starting the engine. Here are the unlocked doors: passenger, rear_right"}',
    );
    expect(show(api({ doorStatus: allLocked() }).startEngine('START'))).toBe(
      '{"error": "Brake pedal needs to be pressed when starting the engine."}',
    );
    expect(show(ready({ brakePedalForce: 500.0 }).startEngine('START'))).toBe(
      '{"error": "Must press the brake fully before starting the engine."}',
    );
    expect(show(ready({ fuelLevel: -1.0 }).startEngine('START'))).toBe('{"error": "Fuel tank is empty."}');
    expect(show(ready().startEngine('start'))).toBe('{"error": "Invalid ignition mode."}');
  });

  it('STOP stops the engine even though it then reports an error', () => {
    const v = ready({ engineState: 'running' });
    expect(show(callMethod(v, 'startEngine', { ignitionMode: 'STOP' }))).toBe('{"error": "Invalid ignition mode."}');
    expect(v.engine_state).toBe('stopped');
    const unlocked = api({ engineState: 'running' });
    expect(show(unlocked.startEngine('STOP'))).toContain('All doors must be locked');
    expect(unlocked.engine_state).toBe('stopped');
  });

  it('accepts an int brake force of 1000 (pedal position 1)', () => {
    const v = api({ doorStatus: allLocked() });
    expect(show(v.pressBrakePedal(1n))).toBe('{"brakePedalStatus": "pressed", "brakePedalForce": 1000.0}');
    expect(show(v.startEngine('START'))).toContain('"engineState": "running"');
  });
});

describe('VehicleControlAPI fuel', () => {
  it('fillFuelTank adds fuel within the 50-gallon tank', () => {
    const v = api({ fuelLevel: 10.5 });
    expect(show(callMethod(v, 'fillFuelTank', { fuelAmount: 30n }))).toBe('{"fuelLevel": 40.5}');
    expect(show(v.fillFuelTank(-1n))).toBe('{"error": "Fuel amount cannot be negative."}');
    expect(show(v.fillFuelTank(10.0))).toBe('{"error": "Cannot fill gas above the tank capacity."}');
    expect(v.fuelLevel).toBe(40.5);
    expect(show(api({ fuelLevel: -5.0 }).fillFuelTank(1.0))).toBe(
      '{"error": "Fuel tank is empty. Min fuel level is 0 gallons."}',
    );
    expect(raised(() => v.fillFuelTank('5'))).toBe("TypeError: '<' not supported between instances of 'str' and 'int'");
  });

  it('fillFuelTank keeps the float type of the default level', () => {
    const v = api();
    expect(show(v.fillFuelTank(20n))).toBe('{"fuelLevel": 20.0}');
    expect(jsonDumps(new Map(v._publicState()))).toContain('"fuelLevel": 20.0');
  });

  it('estimate_drive_feasibility_by_mileage uses 20 miles per gallon', () => {
    const v = api({ fuelLevel: 10.0 });
    expect(show(callMethod(v, 'estimate_drive_feasibility_by_mileage', { distance: 200n }))).toBe('{"canDrive": true}');
    expect(show(v.estimate_drive_feasibility_by_mileage(200.5))).toBe('{"canDrive": false}');
  });

  it('converts liters and gallons', () => {
    const v = api();
    expect(show(callMethod(v, 'liter_to_gallon', { liter: 1.5 }))).toBe('{"gallon": 0.396258}');
    expect(show(v.liter_to_gallon(20n))).toBe('{"gallon": 5.283440000000001}');
    expect(show(callMethod(v, 'gallon_to_liter', { gallon: 2n }))).toBe('{"liter": 7.57082}');
    expect(raised(() => v.liter_to_gallon('3'))).toBe("TypeError: can't multiply sequence by non-int of type 'float'");
  });
});

describe('VehicleControlAPI doors, lights, climate', () => {
  it('lockDoors locks and unlocks, counting only real changes', () => {
    const v = api();
    expect(show(callMethod(v, 'lockDoors', { unlock: false, door: ['driver', 'passenger', 'driver'] }))).toBe(
      '{"lockStatus": "locked", "remainingUnlockedDoors": 2}',
    );
    expect(show(v.lockDoors(true, ['driver', 'rear_left']))).toBe('{"lockStatus": "unlocked", "remainingUnlockedDoors": 3}');
    expect(show(v.displayCarStatus('doors'))).toBe(
      '{"doorStatus": {"driver": "unlocked", "passenger": "locked", "rear_left": "unlocked", "rear_right": "unlocked"}}',
    );
  });

  it('lockDoors raises a KeyError for an unknown door (a string iterates its characters)', () => {
    const v = api();
    expect(raised(() => v.lockDoors(false, ['trunk']))).toBe("KeyError: 'trunk'");
    expect(raised(() => v.lockDoors(false, 'driver'))).toBe("KeyError: 'd'");
    expect(raised(() => v.lockDoors(false, 3n))).toBe("TypeError: 'int' object is not iterable");
  });

  it('setHeadlights: on, off, and auto meaning off', () => {
    const v = api();
    expect(show(callMethod(v, 'setHeadlights', { mode: 'on' }))).toBe('{"headlightStatus": "on"}');
    expect(v.headLightStatus).toBe('on');
    expect(show(v.setHeadlights('auto'))).toBe('{"headlightStatus": "off"}');
    expect(v.headLightStatus).toBe('off');
    expect(show(v.setHeadlights('dim'))).toBe('{"error": "Invalid headlight mode."}');
  });

  it('adjustClimateControl stores Celsius but reports the input temperature', () => {
    const v = api();
    const kwargs = { temperature: 70n, unit: 'fahrenheit', fanSpeed: 80n, mode: 'cool' };
    expect(show(callMethod(v, 'adjustClimateControl', kwargs))).toBe(
      '{"currentACTemperature": 70, "climateMode": "cool", "humidityLevel": 50.0}',
    );
    expect(v.acTemperature).toBe(21.11111111111111);
    expect(show(v.displayCarStatus('climate'))).toBe(
      '{"currentACTemperature": 21.11111111111111, "fanSpeed": 80, "climateMode": "cool", "humidityLevel": 50.0}',
    );
    expect(show(callMethod(v, 'adjustClimateControl', { temperature: 22.5 }))).toBe(
      '{"currentACTemperature": 22.5, "climateMode": "auto", "humidityLevel": 50.0}',
    );
    expect(v.fanSpeed).toBe(50n);
    expect(show(v.adjustClimateControl(20n, 'celsius', 101n, 'auto'))).toBe(
      '{"error": "Fan speed must be between 0 and 100."}',
    );
    expect(raised(() => v.adjustClimateControl(20n, 'celsius', 'high', 'auto'))).toBe(
      "TypeError: '<=' not supported between instances of 'int' and 'str'",
    );
  });

  it('displayCarStatus covers every option', () => {
    const v = api({ fuelLevel: 12.0, engineState: 'running' });
    expect(show(callMethod(v, 'displayCarStatus', { option: 'fuel' }))).toBe('{"fuelLevel": 12.0}');
    expect(show(v.displayCarStatus('battery'))).toBe('{"batteryVoltage": 12.6}');
    expect(show(v.displayCarStatus('headlights'))).toBe('{"headlightStatus": "off"}');
    expect(show(v.displayCarStatus('engine'))).toBe('{"engineState": "running"}');
    expect(show(v.displayCarStatus('parkingBrake'))).toBe(
      '{"parkingBrakeStatus": "released", "parkingBrakeForce": 0.0, "slopeAngle": 0.0}',
    );
    expect(show(v.displayCarStatus('tires'))).toBe('{"error": "Invalid option"}');
  });
});

describe('VehicleControlAPI brakes and cruise control', () => {
  it('activateParkingBrake engages and releases (release still reports a 10° slope)', () => {
    const v = api();
    expect(show(callMethod(v, 'activateParkingBrake', { mode: 'engage' }))).toBe(
      '{"parkingBrakeStatus": "engaged", "_parkingBrakeForce": 500.0, "_slopeAngle": 10.0}',
    );
    expect(show(v.activateParkingBrake('release'))).toBe(
      '{"parkingBrakeStatus": "released", "_parkingBrakeForce": 0.0, "_slopeAngle": 10.0}',
    );
    expect(show(v.activateParkingBrake('hold'))).toBe('{"error": "Invalid mode"}');
  });

  it('pressBrakePedal scales the force; position 0 releases', () => {
    const v = api();
    expect(show(callMethod(v, 'pressBrakePedal', { pedalPosition: 0.5 }))).toBe(
      '{"brakePedalStatus": "pressed", "brakePedalForce": 500.0}',
    );
    expect(v.brakePedalStatus).toBe('pressed');
    expect(show(v.pressBrakePedal(0n))).toBe('{"brakePedalStatus": "released", "brakePedalForce": 0.0}');
    expect(show(v.pressBrakePedal(1.5))).toBe('{"error": "Pedal position must be between 0 and 1."}');
    v.pressBrakePedal(1.0);
    expect(show(callMethod(v, 'releaseBrakePedal'))).toBe('{"brakePedalStatus": "released", "brakePedalForce": 0.0}');
    expect(v.brakePedalStatus).toBe('released');
  });

  it('setCruiseControl needs a running engine and a multiple of 5 up to 120', () => {
    expect(show(api().setCruiseControl(60n, true, 100n))).toBe(
      '{"error": "Start the engine before activating the cruise control."}',
    );
    const v = api({ engineState: 'running' });
    expect(show(callMethod(v, 'setCruiseControl', { speed: 65n, activate: true, distanceToNextVehicle: 100n }))).toBe(
      '{"cruiseStatus": "active", "currentSpeed": 65.0, "distanceToNextVehicle": 100.0}',
    );
    expect(v.cruiseStatus).toBe('active');
    expect(show(v.setCruiseControl(63n, true, 80.5))).toBe('{"error": "Invalid speed"}');
    expect(v.distanceToNextVehicle).toBe(80.5); // stored before the speed check
    expect(show(v.setCruiseControl(125n, true, 80n))).toBe('{"error": "Invalid speed"}');
    expect(show(v.setCruiseControl('40', false, '30'))).toBe(
      '{"cruiseStatus": "inactive", "currentSpeed": 40.0, "distanceToNextVehicle": 30.0}',
    );
    expect(raised(() => v.setCruiseControl('fast', true, 'far'))).toBe(
      "ValueError: could not convert string to float: 'far'",
    );
  });
});

describe('VehicleControlAPI readings and navigation', () => {
  it('draws temperatures and speeds from the seeded generator', () => {
    const v = api();
    expect(show(callMethod(v, 'get_outside_temperature_from_google'))).toBe('{"outsideTemperature": 36.63485703790535}');
    expect(show(callMethod(v, 'get_current_speed'))).toBe('{"currentSpeed": 99.11925428879405}');
    expect(show(v.get_current_speed())).toBe('{"currentSpeed": 44.51081620775468}');
    expect(show(callMethod(v, 'get_outside_temperature_from_weather_com'))).toBe('{"error": 404}');
  });

  it('estimate_distance knows 12 zip-code pairs, either direction', () => {
    const v = api();
    expect(show(callMethod(v, 'estimate_distance', { cityA: '83214', cityB: '74532' }))).toBe('{"distance": 750.0}');
    expect(show(v.estimate_distance('08540', '94704'))).toBe('{"distance": 2550.0}');
    expect(show(v.estimate_distance('94016', '74532'))).toBe('{"distance": 880.0}');
    expect(show(v.estimate_distance('00000', '74532'))).toBe('{"error": "distance not found in database."}');
    expect(show(v.estimate_distance(83214n, '74532'))).toBe('{"error": "distance not found in database."}');
  });

  it('get_zipcode_based_on_city defaults to 00000', () => {
    expect(show(callMethod(api(), 'get_zipcode_based_on_city', { city: 'Crescent Hollow' }))).toBe('{"zipcode": "69238"}');
    expect(show(api().get_zipcode_based_on_city('Atlantis'))).toBe('{"zipcode": "00000"}');
  });

  it('set_navigation stores the destination (even when the reply fails)', () => {
    const v = api();
    expect(show(callMethod(v, 'set_navigation', { destination: '123 Pine St, Rivermist, CA' }))).toBe(
      '{"status": "Navigating to 123 Pine St, Rivermist, CA"}',
    );
    expect(v.destination).toBe('123 Pine St, Rivermist, CA');
    expect(raised(() => v.set_navigation(5n))).toBe('TypeError: can only concatenate str (not "int") to str');
    expect(v.destination).toBe(5n);
  });

  it('check_tire_pressure judges the mean pressure', () => {
    expect(show(callMethod(api(), 'check_tire_pressure'))).toBe(
      '{"frontLeftTirePressure": 32.0, "frontRightTirePressure": 32.0, "rearLeftTirePressure": 30.0, ' +
        '"rearRightTirePressure": 30.0, "healthy_tire_pressure": true, "car_info": {}}',
    );
    expect(show(api({ frontLeftTirePressure: 20.0, frontRightTirePressure: 20.0 }).check_tire_pressure())).toContain(
      '"healthy_tire_pressure": false',
    );
  });

  it('find_nearest_tire_shop and display_log', () => {
    expect(show(callMethod(api(), 'find_nearest_tire_shop'))).toBe('{"shopLocation": "456 Oakwood Avenue, Rivermist, 83214"}');
    expect(show(callMethod(api(), 'display_log', { messages: ['a', 'b'] }))).toBe('{"log": ["a", "b"]}');
  });

  it('binds arguments like Python', () => {
    expect(raised(() => callMethod(api(), 'startEngine'))).toMatch(/missing 1 required positional argument: 'ignitionMode'/);
  });
});

describe('VehicleControlAPI long context', () => {
  it('adds the filler to the reference methods', () => {
    const v = api({}, true, longCtx);
    expect(show(v.displayCarStatus('fuel'))).toBe('{"metadata": "Manufacturer: Audi", "fuelLevel": 0.0}');
    expect(show(v.activateParkingBrake('engage'))).toBe(
      '{"parkingBrakeInstruction": "Pull the lever.", "parkingBrakeStatus": "engaged", ' +
        '"_parkingBrakeForce": 500.0, "_slopeAngle": 10.0}',
    );
    expect(show(v.estimate_distance('83214', '74532'))).toBe(
      '{"distance": 750.0, "intermediaryCities": ["New Hamilton", "Jacksonville"]}',
    );
    expect(show(v.check_tire_pressure())).toContain('"car_info": "Manufacturer: Audi"');
  });

  it('writes the temperature into one weather dict per context, leaving the data untouched', () => {
    const v = api({}, true, longCtx);
    const first = v.get_outside_temperature_from_google() as PyDict;
    expect(show(first)).toBe(
      '{"-1_day": {"windSpeed": 15.0, "uvIndex": 6}, "outsideTemperature": 36.63485703790535}',
    );
    const other = api({}, true, longCtx);
    expect(other.get_outside_temperature_from_google()).toBe(first);
    expect((longCtx.longContext.get('LONG_WEATHER_EXTENSION') as PyDict).has('outsideTemperature')).toBe(false);
  });
});
